import { it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

// The usage errors of every other command run in-process (help.unit.test.ts); ui's module loads the
// dashboard's assets, which only the built bundle carries.
it('baton ui with an unknown option: one line naming it, then the usage line, exit 2', (t) => {
  const { dir, cleanup } = tempTree();
  t.after(cleanup);
  const result = baton(['ui', '--bogus-flag'], { cwd: dir });
  const [first, second] = result.stderr.split('\n');
  assert.equal(result.code, 2, result.stderr);
  assert.match(first as string, /unknown option '--bogus-flag'/);
  assert.match(second as string, /^usage: baton ui/);
  assert.equal(result.stdout, '');
});
