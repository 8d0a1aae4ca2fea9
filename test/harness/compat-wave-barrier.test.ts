/**
 * The original harness's own wave barrier (a fixture written from the original plugin's behaviour against the original
 * library's functions) with only lib/state.sh swapped for baton's: it still counts, exactly,
 * even racing baton's own SubagentStop hook on the same wave, because both hold one state lock.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const STATE_SH = join(ROOT, 'compat', 'eneo', 'lib', 'state.sh');
const BARRIER = join(ROOT, 'test', 'fixtures', 'eneo-hooks', 'wave-barrier.sh');

// Both the fixture (`baton task lock`, 5 s) and baton's hook (the profile's 8 s) give up on the
// state lock when one holder keeps it past their budget, and then drop the event, as the original
// does. A holder here runs a handful of processes, which on a loaded machine can take longer than
// that: the race test gives both a budget no holder reaches, so it counts whatever the load.
const PATIENT_MS = 120_000;

function project(options: { patient?: boolean } = {}) {
  const config = options.patient
    ? { profile: 'eneo', wave: { file: '.claude/state/wave.json', lockTimeoutMs: PATIENT_MS } }
    : { profile: 'eneo' };
  const tree = tempTree({ 'baton.config.json': JSON.stringify(config) });
  const hooks = join(tree.dir, 'plugin', 'hooks');
  mkdirSync(join(hooks, 'lib'), { recursive: true });
  copyFileSync(BARRIER, join(hooks, 'wave-barrier.sh'));
  copyFileSync(STATE_SH, join(hooks, 'lib', 'state.sh'));
  const env = cleanEnv({
    BATON_BIN: `${process.execPath} ${BIN}`,
    BATON_ROOT: tree.dir,
    CLAUDE_PROJECT_DIR: tree.dir,
    ...(options.patient ? { BATON_LOCK_TIMEOUT_MS: String(PATIENT_MS) } : {}),
  });
  const run = (cmd: string, args: string[], input = '') =>
    spawnSync(cmd, args, { cwd: tree.dir, env, input, encoding: 'utf8' });
  const baton = (...args: string[]) => {
    const r = run(process.execPath, [BIN, ...args]);
    assert.equal(r.status, 0, r.stderr);
    return r;
  };
  const json = (path: string) => JSON.parse(readFileSync(join(tree.dir, '.claude', 'state', path), 'utf8'));
  const barrier = (payload: object) => run('bash', [join(hooks, 'wave-barrier.sh')], JSON.stringify(payload));
  const async = (cmd: string, args: string[], input: string) =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(cmd, args, { cwd: tree.dir, env, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
      child.stdin.end(input);
    });
  return { ...tree, env, baton, json, barrier, async, hooks };
}

const done = (id: string, type = 'Explore') => ({
  agent_id: id,
  agent_type: type,
  last_assistant_message: `DONE|/tmp/${id}.md`,
});

describe('the original wave-barrier.sh with only state.sh swapped', () => {
  it('counts DONE, dedupes, and keeps the task document in step (the regression cases)', () => {
    const p = project();
    try {
      p.baton('task', 'init', '--', 'demo', 'deep', '4', 'none', 'none');
      p.baton('task', 'wave-start', '1', '2', '--agents', '["Explore","Plan"]');
      let r = p.barrier(done('agent-1'));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /1\/2 \(in-progress\)/);
      assert.deepEqual(
        [
          p.json('wave.json').done,
          p.json('current-task.json').wave_status['1'],
          p.json('current-task.json').active_agents,
        ],
        [1, 'in_progress', ['Plan']],
      );
      r = p.barrier(done('agent-1'));
      assert.match(r.stderr, /duplicate SubagentStop for agent-1 ignored/);
      assert.equal(p.json('wave.json').done, 1);
      r = p.barrier(done('agent-2', 'Plan'));
      assert.equal(p.json('wave.json').status, 'ready-for-next-wave');
      assert.deepEqual(
        [p.json('current-task.json').wave_status['1'], p.json('current-task.json').active_agents],
        ['done', []],
      );
      // The lock was released: a plain write goes through at once.
      p.baton('task', 'update', '--', '.next_hint = "x"');
      p.baton('task', 'wave-start', '2', '1', '--agents', '["Explore"]');
      r = p.barrier({
        agent_id: 'agent-3',
        agent_type: 'Explore',
        last_assistant_message: 'BLOCKED|missing acceptance criteria',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual([p.json('wave.json').done, p.json('wave.json').blocked_agents], [0, ['agent-3']]);
      assert.deepEqual(
        [p.json('current-task.json').wave_status['2'], p.json('current-task.json').active_agents],
        ['in_progress', []],
      );
    } finally {
      p.cleanup();
    }
  });

  it("racing baton's own SubagentStop hook on one wave, every result is counted once", async () => {
    const p = project({ patient: true });
    try {
      p.baton('task', 'init', '--', 'demo', 'deep', '4', 'none', 'none');
      const agents = Array.from({ length: 12 }, (_, i) => `agent-${i}`);
      p.baton(
        'task',
        'wave-start',
        '1',
        String(agents.length),
        '--agents',
        JSON.stringify(agents.map(() => 'Explore')),
      );
      const runs = await Promise.all(
        agents.map((id, i) =>
          i % 2 === 0
            ? p.async('bash', [join(p.hooks, 'wave-barrier.sh')], JSON.stringify(done(id)))
            : p.async(
                process.execPath,
                [BIN, 'hook', 'SubagentStop'],
                JSON.stringify({ hook_event_name: 'SubagentStop', ...done(id) }),
              ),
        ),
      );
      const stderr = runs.map((r) => r.stderr).join('');
      assert.deepEqual(
        runs.map((r) => r.code),
        agents.map(() => 0),
        stderr,
      );
      const wave = p.json('wave.json');
      assert.equal(wave.done, agents.length, stderr);
      assert.deepEqual([...wave.seen_agents].sort(), [...agents].sort());
      assert.equal(wave.status, 'ready-for-next-wave');
      const task = p.json('current-task.json');
      assert.deepEqual([task.wave_status['1'], task.active_agents], ['done', []]);
    } finally {
      p.cleanup();
    }
  });

  it("eneo_acquire_lock holds baton's state lock: baton writes wait for it, and it dies with its shell", () => {
    const p = project();
    try {
      p.baton('task', 'init', '--', 'demo', 'deep', '4', 'none', 'none');
      const script = `source ${JSON.stringify(join(p.hooks, 'lib', 'state.sh'))}
        lock=$(eneo_acquire_lock state) || exit 9
        BATON_LOCK_TIMEOUT_MS=300 eneo_phase_set RED; echo "other=$?"
        eneo_task_update_unlocked '.next_hint = "inside"'; echo "inside=$?"
        eneo_release_lock "$lock"
        eneo_phase_set GREEN; echo "after=$?"
        eneo_acquire_lock state >/dev/null; echo "orphan=$?"`;
      const r = spawnSync('bash', ['-c', script], { cwd: p.dir, env: p.env, encoding: 'utf8' });
      assert.equal(r.stdout, 'other=1\ninside=0\nafter=0\norphan=0\n', r.stderr);
      assert.match(r.stderr, /timed out acquiring lock: state/);
      const task = p.json('current-task.json');
      assert.deepEqual([task.next_hint, task.tdd_phase], ['inside', 'GREEN']);
      // The last lock's shell has exited: the next writer takes it over at once.
      p.baton('task', 'phase-set', 'REFACTOR');
      for (const name of ['eneo_task_file', 'eneo_phase_file', 'eneo_wave_file', 'eneo_state_lock_root']) {
        const out = spawnSync('bash', ['-c', `source ${JSON.stringify(STATE_SH)}; ${name}`], {
          cwd: p.dir,
          env: p.env,
          encoding: 'utf8',
        });
        assert.ok(out.stdout.startsWith(join(p.dir, '.claude', 'state')), `${name}: ${out.stdout}${out.stderr}`);
      }
    } finally {
      p.cleanup();
    }
  });
});
