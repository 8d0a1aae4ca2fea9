/**
 * Project root: configurable markers, nested folders and absolute
 * fallbacks; with no markers, CLAUDE_PROJECT_DIR, else the git top level, else the working
 * directory. The config is found at that default root; the markers may move the state below it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { baton, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const INIT = ['task', 'init', '--', 'demo', 'deep', '4', 'none', 'appends'];
const STATE = '.claude/state/current-task.json';

describe('project root', () => {
  it('eneo: a workspace folder holding eneo/ (the marker backend/src/intric) keeps the state in eneo/', () => {
    const { dir, cleanup } = tempTree({
      'baton.config.json': '{"profile": "eneo"}',
      'eneo/backend/src/intric/x.py': '',
    });
    try {
      const env = { CLAUDE_PROJECT_DIR: dir };
      assert.equal(baton(INIT, { cwd: dir, env }).code, 0);
      assert.ok(existsSync(join(dir, 'eneo', STATE)));
      assert.equal(existsSync(join(dir, STATE)), false);
      // The plain CLI finds the same project, so the profile's classification holds there too.
      assert.equal(baton(['set', join('eneo', STATE), 'lane', 'sideways'], { cwd: dir, env }).code, 3);
      const start = baton(['hook', 'SessionStart'], { cwd: dir, env, input: '{"source":"startup"}' });
      assert.deepEqual([start.code, start.stdout], [0, 'Resume: demo\n']);
      assert.equal(baton(['task', 'phase-set', 'GREEN'], { cwd: dir, env }).code, 0);
      const deny = baton(['hook', 'PreToolUse'], {
        cwd: dir,
        env,
        input: JSON.stringify({ tool_name: 'Write', tool_input: { file_path: join(dir, 'eneo/tests/test_a.py') } }),
      });
      assert.match(deny.stdout, /"permissionDecision":"deny"/);
      const status = baton(['statusline'], {
        cwd: dir,
        env: { NO_COLOR: '1' },
        input: JSON.stringify({ workspace: { current_dir: dir, project_dir: dir } }),
      });
      assert.match(status.stdout, /\ndemo · GREEN · …\n$/);
      assert.match(
        baton(['doctor'], { cwd: dir, env }).stdout,
        /current-task\.json present \(deep lane\)|deep lane task demo has none of \.claude\/plans\/demo\.md/,
      );
    } finally {
      cleanup();
    }
  });

  it('no config: the compat scripts and `baton hook --profile eneo` agree on the marker root, so GREEN denies a test edit', () => {
    const { dir, cleanup } = tempTree({ 'eneo/backend/src/intric/x.py': '' });
    const shim = (name: string, args: string[]) => {
      const env = cleanEnv({
        PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
        CLAUDE_PROJECT_DIR: dir,
      });
      delete env.BATON_BIN;
      return spawnSync(join(ROOT, 'compat/eneo/bin', name), args, { cwd: dir, encoding: 'utf8', env }).status;
    };
    try {
      assert.equal(shim('eneo-task-init', ['demo', 'deep', '4', 'none', 'appends']), 0);
      assert.equal(shim('eneo-phase-set', ['GREEN']), 0);
      assert.ok(existsSync(join(dir, 'eneo', STATE)), 'the state is under the marker root');
      const input = JSON.stringify({
        tool_name: 'Write',
        tool_input: { file_path: join(dir, 'eneo/tests/test_a.py') },
      });
      const deny = baton(['hook', 'PreToolUse', '--profile', 'eneo'], {
        cwd: dir,
        env: { CLAUDE_PROJECT_DIR: dir },
        input,
      });
      assert.match(deny.stdout, /"permissionDecision":"deny"/);
      const status = baton(['statusline'], {
        cwd: dir,
        env: { NO_COLOR: '1' },
        input: JSON.stringify({ workspace: { current_dir: dir, project_dir: dir } }),
      });
      assert.match(status.stdout, /\ndemo · GREEN · …\n$/);
    } finally {
      cleanup();
    }
  });

  it('configured markers: the git top level, then the start folder, nested folders, absolute fallbacks', () => {
    const { dir, cleanup } = tempTree({ 'abs/app.toml': '' });
    const config = JSON.stringify({ root: { markers: ['app.toml'], nested: ['svc'], fallbacks: [join(dir, 'abs')] } });
    try {
      const ws = join(dir, 'ws');
      mkdirSync(join(ws, 'svc'), { recursive: true });
      writeFileSync(join(ws, 'baton.config.json'), config);
      // no marker anywhere near: the absolute fallback
      assert.equal(baton(INIT, { cwd: ws, env: { CLAUDE_PROJECT_DIR: ws } }).code, 0);
      assert.ok(existsSync(join(dir, 'abs', STATE)));
      // a nested folder with the marker wins over the fallback
      writeFileSync(join(ws, 'svc', 'app.toml'), '');
      assert.equal(baton(INIT, { cwd: ws, env: { CLAUDE_PROJECT_DIR: ws } }).code, 0);
      assert.ok(existsSync(join(ws, 'svc', STATE)));
      // BATON_ROOT is explicit and wins over every marker
      assert.equal(baton(INIT, { cwd: ws, env: { BATON_ROOT: ws } }).code, 0);
      assert.ok(existsSync(join(ws, STATE)));
    } finally {
      cleanup();
    }
  });

  it('no markers: CLAUDE_PROJECT_DIR, else the git top level, else the working directory', () => {
    const { dir, cleanup } = tempTree({
      'repo/baton.config.json': '{}',
      'repo/sub/deeper/.keep': '',
      'plain/sub/.keep': '',
    });
    try {
      spawnSync('git', ['init', '-q', join(dir, 'repo')]);
      assert.equal(baton(INIT, { cwd: join(dir, 'repo/sub/deeper'), env: {} }).code, 0);
      assert.ok(existsSync(join(dir, 'repo', STATE)), 'git top level');
      assert.equal(
        baton(INIT, { cwd: join(dir, 'repo/sub'), env: { CLAUDE_PROJECT_DIR: join(dir, 'plain') } }).code,
        0,
      );
      assert.ok(existsSync(join(dir, 'plain', STATE)), 'CLAUDE_PROJECT_DIR');
      assert.equal(baton(INIT, { cwd: join(dir, 'plain/sub'), env: {} }).code, 0);
      assert.ok(existsSync(join(dir, 'plain/sub', STATE)), 'working directory outside git');
    } finally {
      cleanup();
    }
  });
});
