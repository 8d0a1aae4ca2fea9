import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

/** compat/eneo/lib/state.sh sourced by bash in a temp project, as the Eneo harness does. */
const STATE_SH = join(ROOT, 'compat', 'eneo', 'lib', 'state.sh');

function sh(dir: string, script: string) {
  const r = spawnSync('bash', ['-c', `source ${JSON.stringify(STATE_SH)}\n${script}`], {
    cwd: dir,
    encoding: 'utf8',
    env: cleanEnv({ BATON_BIN: `${process.execPath} ${BIN}`, BATON_ROOT: dir }),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('compat/eneo/lib/state.sh', () => {
  it('init, update with string and json: args, get, phase-set, next-hint-consume, clear', () => {
    const { dir, cleanup } = tempTree();
    const task = (key: string) =>
      (JSON.parse(readFileSync(join(dir, '.claude/state/current-task.json'), 'utf8')) as Record<string, unknown>)[key];
    try {
      assert.equal(sh(dir, 'eneo_task_init demo deep 4 tenant-scoped appends').code, 0);
      assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'FREE\n');
      assert.equal(
        Object.keys(JSON.parse(readFileSync(join(dir, '.claude/state/current-task.json'), 'utf8'))).length,
        19,
      );
      let r = sh(dir, `eneo_task_update '.last_pr = $__pr | .next_hint = "/eneo-recap"' json:__pr 5678`);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(task('last_pr'), 5678);
      r = sh(dir, `eneo_task_update '.wave = $__w' __w 2`);
      assert.deepEqual([r.code, task('wave')], [0, 2]);
      assert.match(r.stderr, /^\[state\] stored wave as a number; pass it with json:/m);
      assert.equal(sh(dir, 'eneo_task_get .slug').stdout, 'demo\n');
      assert.equal(sh(dir, 'eneo_task_get .prd_issue none').stdout, 'none\n');
      assert.equal(sh(dir, 'eneo_task_get .wave_status').stdout, '{}\n');
      r = sh(dir, 'eneo_phase_set green; echo "rc=$?"');
      assert.equal(r.stdout, 'rc=0\n');
      assert.deepEqual(
        [task('tdd_phase'), readFileSync(join(dir, '.claude/state/phase'), 'utf8')],
        ['GREEN', 'GREEN\n'],
      );
      assert.equal(sh(dir, 'eneo_next_hint_consume').stdout, '/eneo-recap\n');
      assert.equal(sh(dir, 'eneo_next_hint_consume').stdout, '\n');
      assert.equal(sh(dir, 'eneo_wave_start 1 2 --agents \'["Explore"]\'').code, 0);
      assert.equal(sh(dir, 'eneo_task_clear').code, 0);
      assert.equal(existsSync(join(dir, '.claude/state/current-task.json')), false);
      assert.equal(existsSync(join(dir, '.claude/state/wave.json')), false);
      assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'FREE\n');
    } finally {
      cleanup();
    }
  });

  it('every write collides with a leftover bash writer holding .locks/state.lock', () => {
    const { dir, cleanup } = tempTree();
    try {
      assert.equal(sh(dir, 'eneo_task_init demo deep 4 none none').code, 0);
      const before = readFileSync(join(dir, '.claude/state/current-task.json'), 'utf8');
      // The original helper's lock: a folder made with mkdir, held by a live bash writer.
      mkdirSync(join(dir, '.claude/state/.locks/state.lock'), { recursive: true });
      for (const call of [
        `eneo_task_update '.next_hint = "x"'`,
        'eneo_phase_set RED',
        'eneo_next_hint_consume',
        'eneo_task_clear',
      ]) {
        const r = spawnSync('bash', ['-c', `source ${JSON.stringify(STATE_SH)}\n${call}`], {
          cwd: dir,
          encoding: 'utf8',
          env: cleanEnv({ BATON_BIN: `${process.execPath} ${BIN}`, BATON_ROOT: dir, BATON_LOCK_TIMEOUT_MS: '300' }),
        });
        assert.equal(r.status, 1, `${call}: ${r.stderr}`);
        assert.match(r.stderr, /\[state\] timed out acquiring lock: state/, call);
      }
      assert.equal(readFileSync(join(dir, '.claude/state/current-task.json'), 'utf8'), before);
    } finally {
      cleanup();
    }
  });

  it('usage strings, exit codes and [state] messages of the original helpers', () => {
    const { dir, cleanup } = tempTree();
    try {
      const cases: [string, number, RegExp][] = [
        [
          'eneo_task_init demo deep',
          2,
          /^usage: eneo-task-init <slug> <lane> <bracket> <tenancy_impact> <audit_impact>$/m,
        ],
        ['eneo_task_init demo deep four none none', 2, /^\[state\] bracket must be an integer/m],
        ['eneo_task_update', 2, /^usage: eneo-task-update '<jq-expression>' \[arg-name arg-value\]\.\.\.$/m],
        ['eneo_task_update .x=1', 3, /^\[state\] no current task \(/m],
        ['eneo_task_update_if_exists .x=1', 0, /^$/],
        ['eneo_phase_set', 2, /^usage: eneo-phase-set RED\|GREEN\|REFACTOR\|FREE$/m],
        ['eneo_phase_set RED', 3, /^\[state\] no current task; run init first$/m],
        ['eneo_phase_set blue', 2, /^\[state\] invalid phase: blue \(expected RED\|GREEN\|REFACTOR\|FREE\)$/m],
        ['eneo_next_hint_consume', 0, /^$/],
        ['eneo_task_clear', 0, /^$/],
      ];
      for (const [script, code, stderr] of cases) {
        const r = sh(dir, script);
        assert.equal(r.code, code, `${script}: ${r.stderr}`);
        assert.match(r.stderr, stderr, script);
      }
      assert.equal(existsSync(join(dir, '.claude')), false, 'clear and consume never create the state folder');
      assert.equal(sh(dir, 'eneo_phase_set FREE').code, 0);
      sh(dir, 'eneo_task_init demo deep 4 none none');
      const r = sh(dir, `eneo_task_update '.a = $x' x`);
      assert.equal(r.code, 2);
      assert.equal(sh(dir, `eneo_task_update '.a = $__a' json:__a '{bad'`).code, 1);
      assert.equal(sh(dir, `eneo_task_update '.phase = "three"'`).code, 1, 'a validation failure is exit 1');
      assert.equal(sh(dir, `eneo_task_update '.a = (1,2)'`).code, 1);
      assert.match(
        sh(dir, 'eneo_task_init other fast 1 none none').stderr,
        /\[state\] replacing current task demo with other/,
      );
    } finally {
      cleanup();
    }
  });

  it("baton task typed by hand prints baton's own usage (from its definition), not a compat helper's", () => {
    const { dir, cleanup } = tempTree();
    try {
      const task = (args: string[]) => {
        const r = spawnSync(process.execPath, [BIN, 'task', ...args], {
          cwd: dir,
          encoding: 'utf8',
          env: cleanEnv({ BATON_ROOT: dir }),
        });
        return [r.status, r.stderr];
      };
      assert.deepEqual(task(['phase-set']), [2, 'usage: baton task phase-set RED|GREEN|REFACTOR|FREE\n']);
      assert.deepEqual(task(['init', 'demo']), [2, 'usage: baton task init SLUG LANE BRACKET TENANCY AUDIT\n']);
      assert.deepEqual(task(['get']), [2, 'usage: baton task get EXPR [--default TEXT]\n']);
      assert.match(String(task(['frobnicate'])[1]), /^usage: baton task init\|update\|get\|phase-set\|/);
      assert.equal(existsSync(join(dir, '.claude')), false);
    } finally {
      cleanup();
    }
  });
});
