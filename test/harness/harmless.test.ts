/**
 * What harmlessCommand() proves, checked for real: every ALLOWED command of the corpus is run by
 * bash in a git project (tests, sources, a fixture, a CSV) and the project must be byte for byte
 * what it was, outside `.git` (where `git add` and `git status` may refresh the index). The
 * commands that run baton are skipped: baton's writes are baton's own, gated by its rules.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, lstatSync } from 'node:fs';
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

describe('git configuration of an embedded repository', () => {
  it('is read through the gitlink `git add` makes, in every index version', () => {
    const { dir, cleanup } = tempTree({ 'home/.keep': '', 'project/src/app.py': 'x\n', 'project/src/evil/a': 'a\n' });
    try {
      const cwd = join(dir, 'project');
      const home = join(dir, 'home');
      const env = cleanEnv({ HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
      const run = (at: string, command: string) => {
        const result = spawnSync('bash', ['-c', command], { cwd: at, env, encoding: 'utf8' });
        assert.equal(result.status, 0, `${command}: ${result.stderr}`);
      };
      const commit = 'git add -A && git -c user.name=t -c user.email=t@t commit -qm start';
      run(join(cwd, 'src', 'evil'), `git init -q && ${commit}`);
      run(cwd, `git init -q && ${commit} 2>/dev/null`);
      assert.equal(harmlessCommand('git status', cwd, home), undefined);
      // What an agent can do with the edit tools and `git add`: a hook in the embedded repository.
      run(join(cwd, 'src', 'evil'), `git config core.fsmonitor 'touch ${join(cwd, 'ran')}; false #'`);
      for (const version of ['2', '3', '4']) {
        run(cwd, `git update-index --index-version ${version}`);
        assert.match(harmlessCommand('git status', cwd, home) ?? '', /src\/evil\/\.git\/config sets core\.fsmonitor/);
        assert.match(harmlessCommand('cd src && git diff', cwd, home) ?? '', /core\.fsmonitor/);
      }
      // It is real: git status in the project runs the embedded repository's fsmonitor.
      run(cwd, 'git status > /dev/null 2>&1 || true');
      assert.ok(existsSync(join(cwd, 'ran')), 'git status ran the embedded fsmonitor');
    } finally {
      cleanup();
    }
  });
});
