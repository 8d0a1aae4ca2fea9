import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDoc } from '../../src/index.js';
import { tempTree } from '../helpers/fixtures.js';

test("in a write, now is the write's own timestamp: the instant of $__now, as a number", async () => {
  const t = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n' });
  try {
    const at = new Date('2026-12-01T01:02:03.456Z');
    const fixed = openDoc(join(t.dir, 'fixed.json'), { cwd: t.dir, env: {}, now: () => at });
    await fixed.init({});
    await fixed.update('.stamp = (now | todate) | .dollar = $__now | .seconds = now');
    assert.deepEqual(await fixed.read(), {
      stamp: '2026-12-01T01:02:03Z',
      dollar: '2026-12-01T01:02:03Z',
      seconds: 1796086923.456,
    });

    // On the real clock too: one instant per write, whichever way the expression spells it.
    const doc = openDoc(join(t.dir, 'task.json'), { cwd: t.dir, env: {} });
    await doc.init({ n: 0 });
    for (let i = 0; i < 5; i++)
      await doc.update('.stamp = (now | todate) | .dollar = $__now | .seconds = now | .n += 1');
    const after = (await doc.read()) as { stamp: string; dollar: string; seconds: number; n: number };
    assert.equal(after.n, 5);
    assert.equal(after.stamp, after.dollar);
    assert.equal(Math.floor(after.seconds), Date.parse(after.dollar) / 1000);
  } finally {
    t.cleanup();
  }
});
