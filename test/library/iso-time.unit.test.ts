/**
 * isoString (core/iso-time.ts) stands in for Date.prototype.toISOString on every write (history
 * times, stamps): it must give the very same text, and leave what it does not format to it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isoSeconds, isoString } from '../../src/core/iso-time.js';

describe('isoString', () => {
  it('is toISOString for instants across the years it formats, to the millisecond', () => {
    const instants = [
      0,
      1,
      999,
      Date.UTC(2026, 11, 2, 0, 59, 59, 999),
      Date.UTC(2024, 1, 29, 23, 0, 0, 7),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(0, 0, 1) - 0,
      new Date('0000-01-01T00:00:00.000Z').getTime(),
      -1,
      -62198755200000,
    ];
    for (let i = 0; i < 2000; i++) instants.push(Math.floor(Math.random() * 253402300799999));
    for (const ms of instants) assert.equal(isoString(new Date(ms)), new Date(ms).toISOString(), String(ms));
  });

  it('leaves years outside 0-9999 and an invalid date to toISOString', () => {
    for (const ms of [253402300800000, -62198755200001, 8.64e15, -8.64e15]) {
      assert.equal(isoString(new Date(ms)), new Date(ms).toISOString(), String(ms));
    }
    assert.throws(() => isoString(new Date(Number.NaN)), RangeError);
  });

  it('isoSeconds keeps the second and drops the milliseconds', () => {
    assert.equal(isoSeconds(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))), '2026-01-02T03:04:05Z');
  });
});
