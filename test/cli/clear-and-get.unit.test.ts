import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton, eneoTaskProjectInProcess } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const GARBAGE = '{"n": 2,, hand-written notes that no revision holds';

describe('clear never deletes a file whose text it cannot keep', () => {
  it('baton clear on a file that is not JSON refuses (exit 7) naming the fix, with or without history; the text stays', async (t) => {
    const { dir, cleanup } = tempTree({ 'loose.json': GARBAGE });
    t.after(cleanup);
    const loose = await baton(['clear', 'loose.json'], { cwd: dir });
    assert.equal(loose.code, 7, loose.stderr);
    assert.match(loose.stderr, /loose\.json is not valid JSON .*nothing was cleared.*mv loose\.json loose\.json\.bad/);
    assert.equal(readFileSync(join(dir, 'loose.json'), 'utf8'), GARBAGE);

    assert.equal((await baton(['init', 'd.json', '--argjson', 'n', '1'], { cwd: dir })).code, 0);
    writeFileSync(join(dir, 'd.json'), GARBAGE);
    const tracked = await baton(['clear', 'd.json'], { cwd: dir });
    assert.equal(tracked.code, 7, tracked.stderr);
    assert.match(tracked.stderr, /nothing was cleared.*baton doctor --repair.*then clear/);
    assert.equal(readFileSync(join(dir, 'd.json'), 'utf8'), GARBAGE);
    // The fix it names works: the repair keeps the bad text aside, and clear then succeeds.
    assert.equal((await baton(['doctor', '--repair'], { cwd: dir })).code, 0);
    assert.equal((await baton(['clear', 'd.json'], { cwd: dir })).code, 0);
  });

  it("baton task clear on a corrupt task refuses with the helpers' refusal code (1); the task's text stays", async (t) => {
    const p = await eneoTaskProjectInProcess();
    t.after(p.cleanup);
    const task = join(p.dir, '.claude/state/current-task.json');
    writeFileSync(task, GARBAGE);
    const r = await baton(['task', 'clear'], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /current-task\.json is not valid JSON .*nothing was cleared/);
    assert.equal(readFileSync(task, 'utf8'), GARBAGE);
  });
});
