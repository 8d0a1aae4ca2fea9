/**
 * The status line shows the work board while items are open: done count, who holds what, how
 * many are open or blocked; nothing once all are done.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('the status line shows the board', () => {
  it('pending items and their holders, until all are done', (t) => {
    const { dir, cleanup } = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'baton.config.json': '{}' });
    t.after(cleanup);
    const env = { NO_COLOR: '1', BATON_ROOT: dir };
    const work = (...args: string[]) => assert.equal(baton(['work', ...args], { cwd: dir, env }).code, 0);
    const status = () =>
      baton(['statusline'], {
        cwd: dir,
        env,
        input: JSON.stringify({ model: { display_name: 'M' }, session_id: 's', workspace: { project_dir: dir } }),
      }).stdout.split('\n');
    work('add', 'api', '--title', 'API');
    work('add', 'ui', '--title', 'UI');
    work('add', 'e2e', '--title', 'E2E', '--after', 'api', '--after', 'ui');
    work('add', 'docs', '--title', 'Docs');
    work('claim', 'api', '--as', 'agent-1');
    work('claim', 'ui', '--as', 'agent-2');
    work('done', 'ui', '--as', 'agent-2');
    work('claim', 'docs', '--as', 'agent-3');
    work('block', 'docs', '--as', 'agent-3', '--reason', 'no spec');
    assert.equal(status()[1], 'board 1/4 done · ↻ agent-1: api · 1 open · 1 blocked');
    work('done', 'api', '--as', 'agent-1');
    work('reopen', 'docs');
    for (const id of ['e2e', 'docs']) {
      work('claim', id, '--as', 'agent-1');
      work('done', id, '--as', 'agent-1');
    }
    assert.deepEqual(status().slice(1), [''], 'no board line once all are done');
  });
});
