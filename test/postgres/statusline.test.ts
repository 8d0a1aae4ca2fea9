import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('baton statusline on PostgreSQL', () => {
  let cluster: Cluster;
  let url: string;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('statusline');
  });
  after(() => cluster.stop());

  const machine = () => {
    const dir = join(tempDir(), 'checkout');
    mkdirSync(join(dir, '.tmp'), { recursive: true });
    writeFileSync(join(dir, 'baton.config.json'), '{"project": "team/status"}\n');
    const env = { BATON_ROOT: dir, BATON_STORE: url, NO_COLOR: '1', TMPDIR: join(dir, '.tmp') };
    const payload = JSON.stringify({ session_id: 's1', workspace: { current_dir: dir, project_dir: dir } });
    const statusline = () => baton(['statusline'], { cwd: dir, env, input: payload });
    return {
      dir,
      run: (args: string[]) => baton(args, { cwd: dir, env }),
      statusline,
      /**
       * The row once a run has reached the server: a run whose connection misses the status
       * line's budget (a loaded test machine) shows the cached row, or none before any, and is
       * run again, as the host runs the line again.
       */
      row: () => {
        let last = '';
        for (let attempt = 0; attempt < 20 && !last.startsWith('shared-task'); attempt++) {
          const shown = statusline();
          assert.equal(shown.code, 0, shown.stderr);
          last = shown.stdout.split('\n')[1] ?? '';
        }
        return last;
      },
    };
  };

  it('shows the task row on the machine that wrote it and on one that never did', () => {
    const a = machine();
    const b = machine();
    assert.equal(a.run(['store', 'migrate']).code, 0);
    const init = a.run(['task', 'init', '--', 'shared-task', 'deep', '4', 'none', 'none']);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(a.run(['task', 'phase-set', 'GREEN']).code, 0);
    for (const [name, m] of [
      ['writer', a],
      ['reader', b],
    ] as const)
      assert.match(m.row(), /^shared-task · .*GREEN/, name);
  });

  it('keeps the last row it read when the server is gone, and shows none when it never read one', () => {
    const b = machine();
    assert.match(b.row(), /^shared-task/);
    // Age the cached rows (the task's and the work board's) past their freshness, so the next run
    // asks the server, which is gone.
    const cached = readdirSync(join(b.dir, '.tmp'), { recursive: true, withFileTypes: true }).filter((entry) =>
      /^task-.*\.json$/.test(entry.name),
    );
    assert.equal(cached.length, 2);
    const old = new Date(Date.now() - 60_000);
    for (const entry of cached) utimesSync(join(entry.parentPath, entry.name), old, old);
    cluster.stop();
    const kept = b.statusline();
    assert.equal(kept.code, 0);
    assert.match(kept.stdout.split('\n')[1] ?? '', /^shared-task · .*GREEN/);
    const never = machine().statusline();
    assert.equal(never.code, 0);
    assert.equal(never.stdout.split('\n').filter(Boolean).length, 1, never.stdout);
  });
});
