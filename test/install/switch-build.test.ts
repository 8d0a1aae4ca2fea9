/**
 * scripts/switch-build.mjs prunes old builds in dist/builds/ once a build is switched to, and never
 * one still in use. Before, every build but the current and the replaced one went once 15 minutes
 * old, the build of a running `baton serve` too, whose dashboard, MCP and PostgreSQL bundles load
 * from it on first use (`baton mcp` and `baton ui` mark theirs the same way).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { greenProject, startServe } from '../serve/serve-process.js';

const DAY = 24 * 60 * 60;

describe('dist/builds/: old builds pruned, never one in use', () => {
  it('keeps the new, the replaced, the three newest, any younger than an hour and any a live process marked', () => {
    const dist = tempDir('baton-switch-');
    const finished = spawnSync('true').pid;
    // Days old, and the pid marked in .in-use/ (this test's, alive; or one that has exited).
    const builds: Record<string, { days: number; pid?: number }> = {
      new: { days: 0 },
      young: { days: 0.5 / 24 },
      second: { days: 2 },
      third: { days: 3 },
      used: { days: 4, pid: process.pid },
      dead: { days: 5, pid: finished },
      previous: { days: 9 },
    };
    const now = Date.now() / 1000;
    for (const [name, { days, pid }] of Object.entries(builds)) {
      const folder = join(dist, 'builds', name);
      mkdirSync(join(folder, 'commands'), { recursive: true });
      if (pid !== undefined) {
        mkdirSync(join(folder, '.in-use'));
        writeFileSync(join(folder, '.in-use', String(pid)), '');
      }
      utimesSync(folder, now - days * DAY, now - days * DAY);
    }
    writeFileSync(join(dist, 'cli.js'), 'require("./builds/previous/commands/_main.js");\n');
    const switched = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { switchTo } = await import(${JSON.stringify(join(ROOT, 'scripts', 'switch-build.mjs'))}); switchTo(process.argv[1], 'new', { 'cli.js': '// builds/new/\\n' });`,
        dist,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(switched.status, 0, switched.stderr);
    assert.deepEqual(readdirSync(join(dist, 'builds')).sort(), ['new', 'previous', 'second', 'used', 'young']);
  });

  it('a running baton serve marks its build while it runs', async (t) => {
    const build = /builds\/([^/]+)\//.exec(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8'))?.[1];
    assert.ok(build, 'dist/cli.js names its build');
    const p = greenProject();
    t.after(p.cleanup);
    const server = await startServe(p.dir);
    t.after(server.stop);
    const marker = join(ROOT, 'dist', 'builds', build, '.in-use', String(server.child.pid));
    assert.ok(existsSync(marker), marker);
    assert.equal(await server.stop(), 0);
    assert.ok(!existsSync(marker), 'removed when it stops');
  });
});
