/**
 * The running program's budget (see Limits in ../limits.ts). Module state rather than a
 * parameter threaded through every evaluator call: a run is synchronous, so exactly one
 * budget is live at a time, and `tick` stays a decrement and a compare on the hot path.
 */
import { JqError } from './jq-errors.js';

export interface JqBudget {
  steps: number;
  timeoutMs: number;
}

// How many steps pass between two reads of the clock: ~40 µs of work, so the time budget is
// kept to well under a millisecond while the clock costs nothing measurable.
const CLOCK_EVERY = 1024;

let live: JqBudget | null = null;
let left = Infinity;
let untilClock = CLOCK_EVERY;
let deadline = Infinity;

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the first touch of the `performance`
 * global loads Node's perf_hooks, ~0.6 ms of CPU in every `get` and `update` process (measured
 * with perf stat, docs/benchmarks.md), for a clock `process.hrtime` reads as well. Its bigint
 * form: Node's function for it is 81 characters to compile on first use, process.hrtime()'s 502
 * (every `get` runs a program, so compiles one of them). A Number holds the nanoseconds exactly
 * for 104 days of uptime, and to well under a millisecond after.
 */
function clock(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Runs `f` under `budget`, restoring the enclosing one (if any) afterwards. */
export function withBudget<T>(budget: JqBudget, f: () => T): T {
  const saved = { live, left, untilClock, deadline };
  live = budget;
  left = budget.steps;
  untilClock = CLOCK_EVERY;
  deadline = clock() + budget.timeoutMs;
  try {
    return f();
  } finally {
    ({ live, left, untilClock, deadline } = saved);
  }
}

/**
 * Charges `n` steps: one per evaluated term, one per element a run allocates, and one per value
 * a builtin touches (comparing, serialising, merging: a value shared by reference, such as
 * `reduce range(40) as $i (0; {a:., b:.})`, is touched once per path that reaches it).
 */
export function tick(n = 1): void {
  left -= n;
  if (left < 0) exhausted('steps');
  untilClock -= n;
  if (untilClock <= 0) {
    untilClock = CLOCK_EVERY;
    if (clock() > deadline) exhausted('time');
  }
}

/**
 * Work that is not a step of the program (copying an object's keys into the copy an update
 * makes): it brings the next look at the clock closer, so the time budget holds during it,
 * without making the step count of an ordinary update depend on how copying is implemented.
 */
export function work(n: number): void {
  untilClock -= n;
  if (untilClock <= 0) {
    untilClock = CLOCK_EVERY;
    if (clock() > deadline) exhausted('time');
  }
}

/** What an allocated value costs: its elements or entries, or 16 characters of a string. */
export function chargeValue(v: unknown): void {
  if (typeof v === 'string') {
    if (v.length >= 16) tick(v.length >> 4);
  } else if (Array.isArray(v)) {
    if (v.length > 0) tick(v.length);
  }
}

function exhausted(what: 'steps' | 'time'): never {
  const budget = live as JqBudget;
  throw new JqError(
    'jq_budget',
    what === 'steps'
      ? `the jq expression exceeded its budget of ${budget.steps} evaluation steps (jqSteps; each term evaluated and each value allocated is a step)`
      : `the jq expression exceeded its time budget of ${budget.timeoutMs} ms (jqTimeoutMs)`,
  );
}
