import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, jq } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { eneoProject, startTask, TASK } from '../harness/helpers.js';

const GARBAGE = '{"n": 2,, hand-written notes that no revision holds';

describe('clear never deletes a file whose text it cannot keep', () => {
  it('baton clear on a file that is not JSON refuses (exit 7) naming the fix, with or without history; the text stays', (t) => {
    const { dir, cleanup } = tempTree({ 'loose.json': GARBAGE });
    t.after(cleanup);
    const loose = baton(['clear', 'loose.json'], { cwd: dir });
    assert.equal(loose.code, 7, loose.stderr);
    assert.match(loose.stderr, /loose\.json is not valid JSON .*nothing was cleared.*mv loose\.json loose\.json\.bad/);
    assert.equal(readFileSync(join(dir, 'loose.json'), 'utf8'), GARBAGE);

    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '1'], { cwd: dir }).code, 0);
    writeFileSync(join(dir, 'd.json'), GARBAGE);
    const tracked = baton(['clear', 'd.json'], { cwd: dir });
    assert.equal(tracked.code, 7, tracked.stderr);
    assert.match(tracked.stderr, /nothing was cleared.*baton doctor --repair.*then clear/);
    assert.equal(readFileSync(join(dir, 'd.json'), 'utf8'), GARBAGE);
    // The fix it names works: the repair keeps the bad text aside, and clear then succeeds.
    assert.equal(baton(['doctor', '--repair'], { cwd: dir }).code, 0);
    assert.equal(baton(['clear', 'd.json'], { cwd: dir }).code, 0);
  });

  it("baton task clear on a corrupt task refuses with the helpers' refusal code (1); the task's text stays", (t) => {
    const p = eneoProject();
    t.after(p.cleanup);
    startTask(p);
    p.write(TASK, GARBAGE);
    const r = p.task(['clear']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /current-task\.json is not valid JSON .*nothing was cleared/);
    assert.equal(p.read(TASK), GARBAGE);
  });
});

describe('baton get on a jq runtime error', () => {
  it('exits non-zero as jq does (baton: 2, jq: 5), printing neither the default nor part of the results', (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}\n' });
    t.after(cleanup);
    for (const expr of ['error("x")', '.a, error("x")', '.a.b']) {
      const theirs = jq([expr], '{"a":1}');
      assert.notEqual(theirs.code, 0, `jq ${expr}`);
      const ours = baton(['get', 'd.json', expr, '--default', 'D'], { cwd: dir });
      assert.equal(ours.code, 2, `${expr}: ${ours.stderr}`);
      assert.equal(ours.stdout, '', expr);
      assert.equal(ours.stderr.trim().split('\n').length, 1, 'one line');
    }
    assert.match(baton(['get', 'd.json', 'error("x")'], { cwd: dir }).stderr, /^baton get: x; look at the values/);
    // A state problem stays a safe read: a missing document prints the default, exit 0.
    assert.deepEqual(
      [baton(['get', 'none.json', '.a', '--default', 'D'], { cwd: dir })].map((r) => [r.code, r.stdout]),
      [[0, 'D\n']],
    );
  });
});
