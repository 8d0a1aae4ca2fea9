/**
 * `baton task`, the Eneo helpers' face, in-process (npm run test:fast): each subcommand's usage
 * error (exit 2, its own usage line), the helpers' refusal code (1) for bad JSON, and what each
 * subcommand reads and writes. The compat scripts run the same face as processes (test/harness).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess, eneoTaskProjectInProcess } from '../helpers/cli.js';

const TASK = '.claude/state/current-task.json';

async function taskProject() {
  const p = await eneoTaskProjectInProcess();
  const task = (...args: string[]) => batonInProcess(['task', ...args], { cwd: p.dir, env: p.env });
  const doc = () => JSON.parse(readFileSync(join(p.dir, TASK), 'utf8')) as Record<string, unknown>;
  return { ...p, task, doc };
}

describe('baton task: usage errors name the subcommand and exit 2, the task unchanged', () => {
  it("no subcommand, an unknown one, or a subcommand's wrong arguments print that usage line", async (t) => {
    const p = await taskProject();
    t.after(p.cleanup);
    const before = readFileSync(join(p.dir, TASK), 'utf8');
    const all = 'usage: baton task init|update|get|phase-set|next-hint-consume|clear|wave-start|path|lock|unlock ...\n';
    for (const [args, stderr] of [
      [[], all],
      [['bogus'], all],
      [['toString'], all],
      [['init', 'a'], 'usage: baton task init SLUG LANE BRACKET TENANCY AUDIT\n'],
      [['update', '--', '.x = $a', 'a'], 'usage: baton task update [--if-exists] -- EXPR [NAME VALUE]...\n'],
      [
        ['update', '--', '.next_hint = $a', 'a-b', '1'],
        "usage: baton task update [--if-exists] -- EXPR [NAME VALUE]...\n[state] argument name 'a-b' is not a jq identifier\n",
      ],
      [['get'], 'usage: baton task get EXPR [--default TEXT]\n'],
      [['phase-set'], 'usage: baton task phase-set RED|GREEN|REFACTOR|FREE\n'],
      [['path'], 'usage: baton task path task|phase|wave|locks\n'],
      [['path', 'bogus'], 'usage: baton task path task|phase|wave|locks\n'],
      [['lock', 'x', '--pid', '-3'], 'usage: baton task lock NAME [--pid PID]\n'],
      [['lock', 'x', '--pid', 'abc'], 'usage: baton task lock NAME [--pid PID]\n'],
      [['unlock'], 'usage: baton task unlock HANDLE\n'],
    ] as const) {
      const r = await p.task(...args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', stderr], args.join(' '));
    }
    assert.equal(readFileSync(join(p.dir, TASK), 'utf8'), before);
  });

  it("a json: argument that is not JSON is the helpers' refusal (exit 1), nothing written", async (t) => {
    const p = await taskProject();
    t.after(p.cleanup);
    const before = readFileSync(join(p.dir, TASK), 'utf8');
    const r = await p.task('update', '--', '.next_hint = $a', 'json:a', '{bad');
    assert.deepEqual([r.code, r.stderr], [1, '[state] invalid JSON for argument a\n']);
    assert.equal(readFileSync(join(p.dir, TASK), 'utf8'), before);
  });
});

describe('baton task: what each subcommand does', () => {
  it('update takes text and json: arguments; get prints raw text or the default; next-hint-consume empties the hint', async (t) => {
    const p = await taskProject();
    t.after(p.cleanup);
    assert.equal((await p.task('update', '--', '.next_hint = $h | .wave = $w', 'h', '/next', 'json:w', '2')).code, 0);
    assert.deepEqual([p.doc().next_hint, p.doc().wave], ['/next', 2]);
    assert.deepEqual(Object.values(await p.task('get', '.next_hint')), [0, '/next\n', '']);
    assert.deepEqual(Object.values(await p.task('get', '.nope', '--default', 'D')), [0, 'D\n', '']);
    assert.deepEqual(Object.values(await p.task('next-hint-consume')), [0, '/next\n', '']);
    assert.deepEqual(Object.values(await p.task('next-hint-consume')), [0, '\n', '']);
  });

  it('phase-set writes the phase and its mirror; path names each file; clear removes the task', async (t) => {
    const p = await taskProject();
    t.after(p.cleanup);
    assert.equal((await p.task('phase-set', 'RED')).code, 0);
    assert.equal(p.doc().tdd_phase, 'RED');
    assert.equal(readFileSync(join(p.dir, '.claude/state/phase'), 'utf8'), 'RED\n');
    for (const [name, path] of [
      ['task', TASK],
      ['phase', '.claude/state/phase'],
      ['locks', '.claude/state/.locks'],
    ]) {
      assert.deepEqual(Object.values(await p.task('path', name as string)), [
        0,
        `${join(p.dir, path as string)}\n`,
        '',
      ]);
    }
    assert.equal((await p.task('clear')).code, 0);
    assert.equal(existsSync(join(p.dir, TASK)), false);
    assert.deepEqual(Object.values(await p.task('get', '.slug')), [0, '\n', '']);
  });
});
