/**
 * When a revision check in flight may answer a hook that arrived after it was sent
 * (src/serve/check-clock.ts): only when the database began it after the arrival, placed on this
 * process's clock by the offset earlier checks bound. The clocks are given here, so the doors a
 * real clock opens only by chance are tried every run: a database clock ahead of ours, this
 * machine's wall clock stepped, readings too old, no reading at all. (The same doors against a real
 * PostgreSQL with a clock of its own: test/serve/check-clock.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckClock } from '../../src/serve/check-clock.js';

/** A monotonic clock (µs) and a wall clock (ms) that reads `wallOffset` µs ahead of it, both set by hand. */
function clocks(start = 1_800_000_000_000_000) {
  const time = { now: start, wallOffset: 0 };
  const clock = new CheckClock(
    () => time.now,
    () => Math.floor((time.now + time.wallOffset) / 1000),
  );
  return { time, clock };
}

describe('a revision check in flight, on the clocks', () => {
  it('answers for arrivals up to when the database began it, by the offset earlier checks bound', () => {
    const { time, clock } = clocks();
    // A check the database began 40 µs after it was sent: the offset is at most 40 µs.
    const first = time.now;
    time.now += 300;
    assert.equal(clock.answered(first, first + 40), first, 'its own reading places it no later than it was sent');
    // One the database began 3 ms after it was sent (its backend waited for a core).
    const sent = time.now;
    time.now += 3_200;
    const covers = clock.answered(sent, sent + 3_000);
    assert.ok(covers > sent + 2_900, `an arrival 2.9 ms after it was sent is answered (${covers - sent} µs)`);
    assert.ok(covers <= sent + 3_000 - 40, 'never later than its start less the offset bound');
  });

  it('a database whose clock is ahead of this machine is not followed, however steady', () => {
    const { time, clock } = clocks();
    for (let i = 0; i < 5; i++) {
      const sent = time.now;
      time.now += 3_200;
      assert.equal(clock.answered(sent, sent + 5_000_000 + 3_000), sent, `check ${i}`);
    }
  });

  it('a database whose clock stepped forward after the offset was read is not followed', () => {
    const { time, clock } = clocks();
    const first = time.now;
    time.now += 300;
    clock.answered(first, first + 40);
    // The database's clock is 5 ms ahead from here on; ours is not.
    const sent = time.now;
    time.now += 3_200;
    assert.equal(clock.answered(sent, sent + 5_000 + 3_000), sent);
  });

  it("this machine's wall clock stepped (the database's with it): the readings before it are dropped", () => {
    const { time, clock } = clocks();
    const first = time.now;
    time.now += 300;
    clock.answered(first, first + 40);
    // Stepped 2 ms forward: the database, on this machine, reads the same wall clock.
    time.wallOffset += 2_000;
    const sent = time.now;
    time.now += 3_200;
    assert.equal(clock.answered(sent, sent + 2_000 + 3_000), sent, 'the check after the step');
    // From here the step is the clocks' difference: the readings after it place the next checks.
    const quick = time.now;
    time.now += 300;
    clock.answered(quick, quick + 2_000 + 40);
    const next = time.now;
    time.now += 3_200;
    assert.ok(clock.answered(next, next + 2_000 + 3_000) > next + 2_900, 'the readings after the step are used');
  });

  it('readings older than a second are not used; a check without the database start answers as sent', () => {
    const { time, clock } = clocks();
    const first = time.now;
    time.now += 300;
    clock.answered(first, first + 40);
    time.now += 1_000_001;
    const sent = time.now;
    time.now += 3_200;
    assert.equal(clock.answered(sent, sent + 3_000), sent);
    const remote = time.now;
    time.now += 3_200;
    assert.equal(clock.answered(remote, undefined), remote);
  });
});
