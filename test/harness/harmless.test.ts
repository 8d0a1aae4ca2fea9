/**
 * What harmlessCommand() proves, checked for real: every ALLOWED command of the corpus is run by
 * bash in a git project (tests, sources, a fixture, a CSV) and the project must be byte for byte
 * what it was, outside `.git` (where `git add` and `git status` may refresh the index). The
 * commands that run baton are skipped: baton's writes are baton's own, gated by its rules.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { harmlessCommand } from '../../src/harness/policy/harmless.js';
import { cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { ALLOWED } from './harmless-corpus.js';

/** Every path outside .git with its type, mode and content: what a write would change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (path === join(dir, 'project', '.git')) continue;
      const stat = lstatSync(path);
      const key = path.slice(dir.length + 1);
      if (stat.isDirectory()) {
        out[key] = `dir ${stat.mode}`;
        walk(path);
      } else out[key] = `${stat.mode} ${stat.isSymbolicLink() ? 'link' : readFileSync(path, 'base64')}`;
    }
  };
  walk(dir);
  return out;
}

describe('harmless commands run for real', () => {
  it('write nothing outside .git', () => {
    const { dir, cleanup } = tempTree({
      'home/.keep': '',
      'project/tests/test_a.py': 'def test_a():\n    assert True\n',
      'project/src/app.py': 'print("foo")\n',
      'project/sub/readme.txt': 'sub\n',
      'project/file.json': '{"a": 1}\n',
      'project/data.csv': 'b,2\na,1\n',
      'project/x': 'foo\nbar\n',
      'project/a': 'a\n',
      'project/b': 'b\n',
    });
    try {
      const cwd = join(dir, 'project');
      const env = cleanEnv({ HOME: join(dir, 'home'), GIT_CONFIG_NOSYSTEM: '1' });
      const git = (...args: string[]) =>
        assert.equal(spawnSync('git', args, { cwd, env, encoding: 'utf8' }).status, 0, `git ${args.join(' ')}`);
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start');
      let ran = 0;
      for (const command of ALLOWED) {
        if (/\bbaton\b/.test(command)) continue;
        assert.equal(harmlessCommand(command, cwd, env.HOME as string), undefined, command);
        const before = snapshot(dir);
        const run = spawnSync('bash', ['-c', command], { cwd, env, input: '', encoding: 'utf8' });
        assert.equal(run.error, undefined, `${command}: ${run.error?.message}`);
        assert.deepEqual(snapshot(dir), before, `${command} changed the project`);
        ran++;
      }
      assert.ok(ran >= 90, `ran ${ran}`);
    } finally {
      cleanup();
    }
  });
});
