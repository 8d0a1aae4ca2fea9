/**
 * When a revision check read the database, on this process's clock: what lets a check already in
 * flight answer a hook that arrived after it was sent (serve/shared-state.ts, docs/serve.md).
 *
 * A hook must be judged on a snapshot taken after it arrived: every commit the agent saw was
 * acknowledged before it sent the hook. A check sent after the arrival is one. A check sent before
 * is one too when the database began its transaction (PostgreSQL's transaction_timestamp(), stamped
 * before the snapshot) after the arrival: on a loaded machine the backend often waits milliseconds
 * for a core, and the hooks that arrive meanwhile need not wait for it and then for one more check.
 *
 * The database's clock is read against ours by the checks themselves: a check's transaction began
 * after it was sent, so the offset (database minus this process) is at most startedAt - sentAt,
 * and the smallest of that over the checks of the last WINDOW_US bounds it, plus SLEW of the time
 * since. A check's transaction began, on our clock, no earlier than startedAt minus that bound.
 *
 * The bound holds while neither clock steps. This process's clock is the monotonic one (never
 * stepped); the database's is the wall clock, which an administrator or NTP can step. It is used
 * only for a database that shares this machine's wall clock (the store gives startedAt only for
 * a Unix socket or a loopback address), and every answer reads the wall clock (Date.now(), in whole
 * milliseconds) against the monotonic one: a moved difference is a step, and the window starts
 * again. A database whose clock does not agree with ours (a loopback port forwarded to another
 * machine or a virtual machine) is not trusted either. What is left: a step forward of under about
 * a millisecond, inside a window, between the samples and a check, can date that check's start
 * that much late (docs/serve.md).
 */

/** How long a check's reading of the offset is kept: past that, its slew allowance (SLEW) makes it useless anyway. */
const WINDOW_US = 1_000_000;
/** How fast two clocks may drift apart: the kernel's bound on NTP's frequency correction, 500 ppm. */
const SLEW = 500e-6;
/** The database's microseconds are whole (floored), and older PostgreSQL computes the epoch in a double. */
const ROUNDING_US = 4;

/** This process's clock, microseconds since the epoch: monotonic since the process started. */
export const localMicros = (): number => (performance.timeOrigin + performance.now()) * 1000;

interface Sample {
  sentAt: number;
  /** startedAt - sentAt: at least the offset then. */
  bound: number;
  /** Date.now() in microseconds minus this process's clock: within (c - 1000, c] for the clocks' true difference c while neither steps. */
  wall: number;
}

export class CheckClock {
  private samples: Sample[] = [];

  constructor(
    readonly now: () => number = localMicros,
    private readonly wallMs: () => number = Date.now,
  ) {}

  /**
   * For a check sent at `sentAt` (this clock, no later than its query was written) and just
   * answered: the latest arrival time it answers for. `sentAt` itself, unless the database's
   * start of it can be placed on this clock; then the later of the two.
   */
  answered(sentAt: number, startedAt: number | undefined): number {
    if (startedAt === undefined) return sentAt;
    const now = this.now();
    const wall = this.wallMs() * 1000 - now;
    // Sent in turn, one at a time per store: the oldest come first.
    let old = 0;
    while (old < this.samples.length && (this.samples[old] as Sample).sentAt < now - WINDOW_US) old++;
    if (old > 0) this.samples.splice(0, old);
    // This machine's wall clock stepped against the monotonic one since the samples were taken
    // (their readings of it lie within one millisecond of each other while it does not).
    const stepped = this.samples.some((s) => Math.abs(s.wall - wall) >= 1000);
    // The database's clock is not this machine's: the offset its answer shows must contain ours,
    // which lies in [wall, wall + 1000). A clock elsewhere, stepped or drifting, is not followed.
    const apart = startedAt - sentAt < wall - ROUNDING_US || startedAt - now >= wall + 1000 + ROUNDING_US;
    if (stepped || apart) this.samples = [];
    if (apart) return sentAt;
    this.samples.push({ sentAt, bound: startedAt - sentAt, wall });
    let offset = Infinity;
    for (const s of this.samples) offset = Math.min(offset, s.bound + SLEW * (now - s.sentAt));
    return Math.max(sentAt, startedAt - offset - ROUNDING_US);
  }
}
