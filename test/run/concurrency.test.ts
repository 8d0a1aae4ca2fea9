/**
 * Parallel agents finishing at once is the normal case for this bus. The original kept
 * 3 of 20 parallel appends; every one of these must land.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { baton, batonAsync, project, state } from './helpers.js';

describe('parallel agents on one run (real processes)', () => {
  it('12 agents doing phase done on their own phases at once: every entry, output and evidence lands', async (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'par'], p.dir);
    const n = 12;
    const keys = Array.from({ length: n }, (_, i) => `${i}-worker-${i}`);
    await Promise.all(keys.map((key, i) => batonAsync(['phase', 'start', 'par', key, '--agent', `agent-${i}`], p.dir)));
    const results = await Promise.all(
      keys.map((key, i) =>
        batonAsync(
          [
            'phase',
            'done',
            'par',
            key,
            '--output',
            `result_${i}=.ai_log/r${i}.md`,
            '--evidence',
            `.ai_log/e${i}.log`,
            '--work-item',
            `docs/w${i}.md`,
            '--promote',
          ],
          p.dir,
        ),
      ),
    );
    assert.deepEqual(
      results.filter((r) => r.code !== 0),
      [],
    );
    const doc = state(p.dir, 'par');
    assert.equal(Object.keys(doc.phases).length, n);
    keys.forEach((key, i) => {
      const entry = doc.phases[key];
      assert.deepEqual(
        [entry.status, entry.agent, entry.outputs, entry.evidence, entry.work_items],
        ['done', `agent-${i}`, { [`result_${i}`]: `.ai_log/r${i}.md` }, [`.ai_log/e${i}.log`], [`docs/w${i}.md`]],
        key,
      );
      assert.equal(doc[`result_${i}`], `.ai_log/r${i}.md`);
    });
    const history = readdirSync(join(p.dir, '.ai_log', '.baton'));
    assert.ok(history.length > 0);
    assert.deepEqual(
      readdirSync(join(p.dir, '.ai_log')).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('20 parallel appends to one field keep all 20 values (the original kept 3)', async (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 's'], p.dir);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => batonAsync(['run', 'append', 's', 'ev', `p${i}`], p.dir)),
    );
    assert.deepEqual(
      results.map((r) => r.code),
      Array(20).fill(0),
    );
    assert.deepEqual([...state(p.dir, 's').ev].sort(), Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
  });

  it('8 agents racing to start the same phase: exactly one wins, the rest are refused', async (t) => {
    const p = project();
    t.after(p.cleanup);
    baton(['run', 'init', 'race'], p.dir);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => batonAsync(['phase', 'start', 'race', '3-build', '--agent', `a${i}`], p.dir)),
    );
    assert.deepEqual(results.map((r) => r.code).sort(), [0, 1, 1, 1, 1, 1, 1, 1]);
    const winner = results.findIndex((r) => r.code === 0);
    assert.equal(state(p.dir, 'race').phases['3-build'].agent, `a${winner}`);
  });
});
