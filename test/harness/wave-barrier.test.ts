import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { eneoProject, startTask, TASK, type EneoProject } from './helpers.js';

/** The SubagentStop wave barrier, including its regression cases and real concurrency. */
const WAVE = '.claude/state/wave.json';

function seed(p: EneoProject, expected: number, agents: string[]): void {
  startTask(p);
  const r = p.task(['wave-start', '1', String(expected), '--total', '3', '--agents', JSON.stringify(agents)]);
  assert.equal(r.code, 0, r.stderr);
}

const stop = (agent_id: string, message: string, agent_type = 'Explore') => ({
  hook_event_name: 'SubagentStop',
  agent_id,
  agent_type,
  last_assistant_message: message,
  stop_hook_active: false,
});

describe('wave barrier regression cases', () => {
  it('DONE from one of two: 1/2 in-progress, one agent removed', () => {
    const p = eneoProject();
    try {
      seed(p, 2, ['Explore', 'Plan']);
      const r = p.hook('SubagentStop', stop('agent-1', '  DONE|/tmp/a.md\nmore text  '));
      assert.deepEqual([r.code, r.stdout], [0, '']);
      assert.match(r.stderr, /\[wave-barrier\] wave 1: 1\/2 \(in-progress\)/);
      const wave = p.json(WAVE);
      assert.deepEqual(
        [wave.done, wave.status, wave.seen_agents, wave.completed_artifacts],
        [1, 'in-progress', ['agent-1'], ['/tmp/a.md']],
      );
      const task = p.json(TASK);
      assert.deepEqual([task.wave_status, task.active_agents], [{ 1: 'in_progress' }, ['Plan']]);
    } finally {
      p.cleanup();
    }
  });

  it('the same DONE twice counts once; the wave becomes ready and the task wave done', () => {
    const p = eneoProject();
    try {
      seed(p, 1, ['Explore']);
      p.hook('SubagentStop', stop('agent-1', 'DONE|/tmp/a.md'));
      const dup = p.hook('SubagentStop', stop('agent-1', 'DONE|/tmp/a.md'));
      assert.match(dup.stderr, /duplicate SubagentStop for agent-1 ignored/);
      const wave = p.json(WAVE);
      assert.deepEqual([wave.done, wave.status], [1, 'ready-for-next-wave']);
      const task = p.json(TASK);
      assert.deepEqual([task.wave_status, task.active_agents], [{ 1: 'done' }, []]);
      p.hook('SubagentStop', stop('agent-2', 'BLOCKED|late complaint'));
      assert.equal(p.json(WAVE).status, 'ready-for-next-wave', 'BLOCKED after completion does not regress');
      assert.deepEqual(p.json(TASK).wave_status, { 1: 'done' });
    } finally {
      p.cleanup();
    }
  });

  it('BLOCKED: done unchanged, in progress, agent removed; expected 3 removes the first Explore only', () => {
    const p = eneoProject();
    try {
      seed(p, 1, ['Explore']);
      const r = p.hook('SubagentStop', stop('agent-1', 'BLOCKED|missing acceptance criteria'));
      assert.match(r.stderr, /wave 1: blocked result from Explore; not advancing/);
      assert.deepEqual(
        [p.json(WAVE).done, p.json(WAVE).status, p.json(WAVE).blocked_agents],
        [0, 'in-progress', ['agent-1']],
      );
      // The reason is kept beside the original's fields (the first line, trimmed), for the dashboard.
      assert.deepEqual(p.json(WAVE).blocked_reasons, { 'agent-1': 'missing acceptance criteria' });
      assert.deepEqual([p.json(TASK).wave_status, p.json(TASK).active_agents], [{ 1: 'in_progress' }, []]);
    } finally {
      p.cleanup();
    }
    const q = eneoProject();
    try {
      seed(q, 3, ['Explore', 'Explore', 'Plan']);
      q.hook('SubagentStop', stop('agent-1', 'DONE|'));
      assert.deepEqual(q.json(TASK).active_agents, ['Explore', 'Plan']);
      assert.deepEqual(q.json(WAVE).completed_artifacts, []);
    } finally {
      q.cleanup();
    }
  });

  it('ignores other messages, stop_hook_active, missing wave.json, garbage; leaves a corrupt wave.json alone', () => {
    const p = eneoProject();
    try {
      startTask(p);
      const none = p.hook('SubagentStop', stop('a', 'DONE|x'));
      assert.deepEqual([none.code, none.stdout, none.stderr], [0, '', '']);
      assert.equal(existsSync(join(p.dir, WAVE)), false);
      p.task(['wave-start', '1', '2']);
      for (const payload of [
        stop('a', 'done|lowercase'),
        stop('a', 'I am DONE|x'),
        { ...stop('a', 'DONE|x'), stop_hook_active: true },
        { agent_id: 'a' },
        'garbage',
      ]) {
        assert.equal(p.hook('SubagentStop', payload).code, 0);
      }
      assert.equal(p.json(WAVE).done, 0);
      p.write(WAVE, '{"wave": 1,');
      const corrupt = p.hook('SubagentStop', stop('b', 'DONE|x'));
      assert.equal(corrupt.code, 0);
      assert.match(corrupt.stderr, /not valid JSON; left as it is/);
      assert.equal(p.read(WAVE), '{"wave": 1,');
    } finally {
      p.cleanup();
    }
  });

  it('a wave.json that cannot be looked at (a link to itself) is not "no wave": the result is not counted, and the log says why', () => {
    const p = eneoProject();
    try {
      startTask(p);
      p.task(['wave-start', '1', '2']);
      const wave = join(p.dir, WAVE);
      renameSync(wave, `${wave}.aside`);
      symlinkSync(wave, wave);
      const r = p.hook('SubagentStop', stop('a', 'DONE|x'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      // existsSync said no file: the result passed as "no wave running", without a word.
      assert.match(
        r.stderr,
        /\[wave-barrier\] wave file [^\n]*wave\.json cannot be read[^\n]*ELOOP\); a \(Explore\) not counted/,
      );
      rmSync(wave);
      renameSync(`${wave}.aside`, wave);
      assert.equal(p.json(WAVE).done, 0);
    } finally {
      p.cleanup();
    }
  });

  it('a marker on a later line is not counted, as the Eneo rule says, and the debug log says why', () => {
    const p = eneoProject();
    try {
      seed(p, 2, ['Explore', 'Plan']);
      const before = p.read(WAVE);
      const later = p.hook('SubagentStop', stop('agent-1', 'Summary of the work.\nDONE|/tmp/a.md'));
      assert.equal(later.code, 0);
      p.hook('SubagentStop', stop('agent-2', 'done|/tmp/b.md', 'Plan'));
      p.hook('SubagentStop', stop('agent-3', 'All finished, see above.'));
      p.hook('SubagentStop', { ...stop('agent-4', 'DONE|/tmp/d.md'), stop_hook_active: true });
      assert.equal(p.read(WAVE), before, 'nothing counted, nothing written');
      const log = p.read('.debug.log');
      for (const line of [
        '[wave-barrier] agent-1 (Explore) not counted: its DONE| marker is on line 2; a result must start the message (its first line, after whitespace)',
        '[wave-barrier] agent-2 (Plan) not counted: markers are case-sensitive: start the message with DONE| or BLOCKED|',
        '[wave-barrier] agent-3 (Explore) not counted: the message does not start with DONE| or BLOCKED| (it starts "All finished, see above.")',
        "[wave-barrier] agent-4 (Explore) not counted: stop_hook_active is set (the barrier skips a stop that follows a stop hook's block)",
      ])
        assert.ok(log.includes(` SubagentStop ${line}\n`), `${line}\nin\n${log}`);
      // The marker leading the message, after whitespace, is counted; the rest of its first line is the artifact.
      p.hook('SubagentStop', stop('agent-1', '\n  DONE|/tmp/a.md\nSummary of the work.'));
      assert.deepEqual([p.json(WAVE).done, p.json(WAVE).completed_artifacts], [1, ['/tmp/a.md']]);
    } finally {
      p.cleanup();
    }
  });

  it('events without agent_id are counted each time (nothing to dedupe by)', () => {
    const p = eneoProject();
    try {
      seed(p, 3, []);
      p.hook('SubagentStop', { last_assistant_message: 'DONE|a' });
      p.hook('SubagentStop', { last_assistant_message: 'DONE|a' });
      assert.equal(p.json(WAVE).done, 2);
    } finally {
      p.cleanup();
    }
  });
});

describe('wave barrier under concurrency', () => {
  it('wave-start clears next_hint as the spec says, and says so when there was one', () => {
    const p = eneoProject();
    try {
      startTask(p, '.next_hint = "read the PRD first"');
      const r = p.task(['wave-start', '2', '3']);
      assert.deepEqual(
        [r.code, r.stdout, r.stderr],
        [
          0,
          '',
          '[state] wave 2 started; next_hint "read the PRD first" cleared (read it with next-hint-consume before wave-start to keep it)\n',
        ],
      );
      assert.equal(p.json(TASK).next_hint, null);
      const quiet = p.task(['wave-start', '3', '1']);
      assert.deepEqual([quiet.code, quiet.stderr], [0, ''], 'nothing to say when there was no hint');
    } finally {
      p.cleanup();
    }
  });

  it('a late duplicate from the previous wave does not count toward the next one', () => {
    const p = eneoProject();
    try {
      seed(p, 1, ['Explore']);
      assert.equal(p.hook('SubagentStop', stop('agent-1', 'DONE|/a.md')).code, 0);
      assert.equal(p.json(WAVE).status, 'ready-for-next-wave');
      assert.equal(p.task(['wave-start', '2', '2', '--agents', '["Plan","Plan"]']).code, 0);
      const late = p.hook('SubagentStop', stop('agent-1', 'DONE|/a.md'));
      assert.equal(late.code, 0);
      assert.match(late.stderr, /duplicate SubagentStop for agent-1 ignored/);
      assert.deepEqual([p.json(WAVE).wave, p.json(WAVE).done, p.json(WAVE).status], [2, 0, 'in-progress']);
      assert.deepEqual(p.json(TASK).active_agents, ['Plan', 'Plan']);
      assert.equal(p.hook('SubagentStop', stop('agent-2', 'DONE|/b.md', 'Plan')).code, 0);
      assert.equal(p.json(WAVE).done, 1);
    } finally {
      p.cleanup();
    }
  });

  it('24 SubagentStop processes at once (16 agents, 8 duplicates) count exactly 16', async () => {
    const p = eneoProject();
    try {
      const agents = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 'Explore' : 'Plan'));
      seed(p, 16, [...agents, 'Extra']);
      const events = [...Array.from({ length: 16 }, (_, i) => i), ...Array.from({ length: 8 }, (_, i) => i * 2)];
      const codes = await Promise.all(events.map((i) => run(p, stop(`agent-${i}`, `DONE|/art/${i}.md`, agents[i]))));
      assert.deepEqual(
        codes,
        events.map(() => 0),
      );
      const wave = p.json(WAVE);
      assert.equal(wave.done, 16);
      assert.equal(wave.status, 'ready-for-next-wave');
      assert.equal(new Set(wave.seen_agents as string[]).size, 16);
      assert.equal((wave.seen_agents as string[]).length, 16);
      assert.equal((wave.completed_artifacts as string[]).length, 16);
      const task = p.json(TASK);
      assert.deepEqual([task.wave_status, task.active_agents], [{ 1: 'done' }, []]);
      assert.deepEqual(
        readdirSync(join(p.dir, '.claude/state')).filter((f) => f.endsWith('.tmp')),
        [],
      );
    } finally {
      p.cleanup();
    }
  });
});

function run(p: EneoProject, payload: unknown): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'SubagentStop'], {
      cwd: p.dir,
      env: cleanEnv(p.env),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.end(JSON.stringify(payload));
    child.on('close', (code) => resolve(code ?? -1));
  });
}
