import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

// Errors that name the fix (issue 10): each input a newcomer gets wrong, with its exit code.
describe('baton lint on input that is not a state file', () => {
  it('a missing file, a folder, with or without --json: exit 1 with a message, never a silent pass', (t) => {
    const { dir, cleanup } = tempTree({ 'goal/state.md': '# s\n' });
    t.after(cleanup);
    for (const args of [['missing.md'], ['missing.md', '--json'], ['goal'], ['goal', '--json']]) {
      const result = baton(['lint', ...args], { cwd: dir });
      assert.equal(result.code, 1, `lint ${args.join(' ')}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^baton lint: .*(does not exist|is not a file).*state\.md/);
    }
    assert.equal(baton(['lint', 'goal/state.md'], { cwd: dir }).code, 0);
  });
});
