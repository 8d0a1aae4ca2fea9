import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton, jq } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

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
