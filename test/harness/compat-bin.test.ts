/**
 * compat/eneo/bin/{eneo-task-init,eneo-task-update,eneo-phase-set}: the Eneo entry points,
 * run as executables the way the Eneo commands call them. PATH has
 * node but no `baton` and BATON_BIN is unset, so the shims must find the package's own CLI.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const BIN_DIR = join(ROOT, 'compat', 'eneo', 'bin');
const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');

function env(dir: string): NodeJS.ProcessEnv {
  const vars = cleanEnv({ PATH, BATON_ROOT: dir });
  delete vars.BATON_BIN;
  return vars;
}

function shim(dir: string, name: string, args: string[]) {
  const r = spawnSync(join(BIN_DIR, name), args, { cwd: dir, encoding: 'utf8', env: env(dir) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('compat/eneo/bin shims', () => {
  it('keep the usage lines and exit codes of the originals, print nothing on stdout', () => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    try {
      const cases: [string, string[], number, RegExp][] = [
        [
          'eneo-task-init',
          ['demo', 'deep'],
          2,
          /^usage: eneo-task-init <slug> <lane> <bracket> <tenancy_impact> <audit_impact>\n$/,
        ],
        ['eneo-task-init', ['demo', 'deep', 'four', 'none', 'none'], 2, /^\[state\] bracket must be an integer/],
        ['eneo-task-update', [], 2, /^usage: eneo-task-update '<jq-expression>' \[arg-name arg-value\]\.\.\.\n$/],
        ['eneo-task-update', ['.x = 1', 'dangling'], 2, /^usage: eneo-task-update /],
        ['eneo-task-update', ['.x = 1'], 3, /^\[state\] no current task \(/],
        ['eneo-task-update', ['--if-exists', '.x = 1'], 0, /^$/],
        ['eneo-phase-set', [], 2, /^usage: eneo-phase-set RED\|GREEN\|REFACTOR\|FREE\n$/],
        ['eneo-phase-set', ['RED', 'GREEN'], 2, /^usage: eneo-phase-set /],
        ['eneo-phase-set', ['blue'], 2, /^\[state\] invalid phase: blue \(expected RED\|GREEN\|REFACTOR\|FREE\)\n$/],
        ['eneo-phase-set', ['RED'], 3, /^\[state\] no current task; run init first\n$/],
        ['eneo-task-init', ['demo', 'deep', '4', 'tenant-scoped', 'appends'], 0, /^$/],
        ['eneo-task-update', ['.next_hint = $h | .last_pr = $pr', 'h', '/eneo-ship', 'json:pr', '5678'], 0, /^$/],
        ['eneo-task-update', ['.a = (1, 2)'], 1, /^\[state\] /],
        ['eneo-task-update', ['.x = 1', 'json:bad', '{'], 1, /^\[state\] invalid JSON for argument bad\n$/],
        [
          'eneo-task-update',
          ['.lane = "sideways"'],
          1,
          /^\[state\] classification refuses the write: lane: "sideways" is not allowed: expected one of fast, standard, deep/,
        ],
        ['eneo-phase-set', ['green'], 0, /^$/],
      ];
      for (const [name, args, code, stderr] of cases) {
        const r = shim(dir, name, args);
        assert.equal(r.code, code, `${name} ${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, stderr, `${name} ${args.join(' ')}`);
        assert.equal(r.stdout, '', `${name} ${args.join(' ')} prints nothing on stdout`);
      }
      const task = JSON.parse(readFileSync(join(dir, '.claude/state/current-task.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        [task.lane, task.next_hint, task.last_pr, task.tdd_phase],
        ['deep', '/eneo-ship', 5678, 'GREEN'],
      );
      assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'GREEN\n');
    } finally {
      cleanup();
    }
  });

  it('a symlink to a shim (e.g. from a folder on PATH) still finds the package', () => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    try {
      spawnSync('ln', ['-s', join(BIN_DIR, 'eneo-task-init'), join(dir, 'init-link')]);
      const r = spawnSync(join(dir, 'init-link'), ['demo', 'fast', '1', 'none', 'none'], {
        cwd: dir,
        encoding: 'utf8',
        env: env(dir),
      });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(existsSync(join(dir, '.claude/state/current-task.json')));
    } finally {
      cleanup();
    }
  });
});
