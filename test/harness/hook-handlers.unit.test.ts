import assert from 'node:assert/strict';
import { existsSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Board } from '../../src/board/board.js';
import { openDoc } from '../../src/doc/open.js';
import { answerHook } from '../../src/harness/hooks/hook-front.js';
import type { Rendered } from '../../src/harness/hooks/types.js';
import { frontProject } from './front-project.js';

/**
 * The harness handlers (Stop, PreCompact, UserPromptSubmit, SessionStart), in-process through the
 * hook front the hook process uses: what each answers on a real project tree, and what it leaves
 * on disk. The shell-running Stop checks (`stop.commands`, the typecheck preset) run processes and
 * are tested in stop-gate tests of their own.
 */

const TASK = '.claude/state/current-task.json';

function project(config: object, task?: Record<string, unknown>) {
  const p = frontProject(config);
  if (task) p.write(TASK, `${JSON.stringify({ slug: 'demo', lane: 'fast', ...task })}\n`);
  return p;
}

const json = (rendered: Rendered): Record<string, any> => JSON.parse(rendered.stdout || '{}') as Record<string, any>;

describe('Stop', () => {
  it('the wave gate blocks mid-wave, names blocked agents, and never blocks twice in a row for one reason', async (t) => {
    const p = project({ profile: 'tdd' }, { tdd_phase: 'GREEN' });
    t.after(p.cleanup);
    const stop = (session = 's1') => p.hook('Stop', { session_id: session, stop_hook_active: false });
    // No wave file: nothing to wait for.
    assert.equal((await stop()).stdout, '');

    p.write('.claude/state/wave.json', JSON.stringify({ wave: 2, expected: 3, done: 1, status: 'in-progress' }));
    const first = json(await stop());
    assert.equal(first.decision, 'block');
    assert.match(
      first.reason,
      /^✗ Wave 2 is not complete: 1\/3 agents reported DONE\.\n {2}Fix: {2}wait for the running agents/,
    );
    assert.match(first.reason, /Rule: stop\.waveGate is "incomplete"/);
    // The same reason again: let through (the guard against a stop loop), then checked afresh.
    assert.equal((await stop()).stdout, '');
    assert.equal(json(await stop()).decision, 'block');
    // Another session has its own memory.
    assert.equal(json(await stop('s2')).decision, 'block');

    p.write(
      '.claude/state/wave.json',
      JSON.stringify({
        wave: 2,
        expected: 3,
        done: 3,
        status: 'in-progress',
        blocked_agents: ['a1', 'a2'],
        blocked_reasons: { a1: 'no fixture', a2: 7 },
      }),
    );
    const blocked = json(await stop('s3'));
    assert.match(
      blocked.reason,
      /3\/3 agents reported DONE; BLOCKED: a1 \(no fixture\), a2\.\n {2}Fix: {2}resolve the blocked agents/,
    );

    // A wave marked ready, or one with all agents done and none blocked, lets the turn end.
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 2, expected: 3, done: 3, status: 'in-progress' }));
    assert.equal((await stop('s4')).stdout, '');
    // A wave file that is not JSON is the doctor's to report; the gate does not invent a wave.
    p.write('.claude/state/wave.json', '{"wave":');
    assert.equal((await stop('s5')).stdout, '');
    // No task (no slug): no wave to gate.
    p.write(TASK, '{}');
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 1, expected: 3, done: 0 }));
    assert.equal((await stop('s6')).stdout, '');
  });

  it('the wave gate "blocked" lets a wave still running end the turn, but not one with a BLOCKED agent', async (t) => {
    const p = project({ profile: 'tdd', stop: { waveGate: 'blocked' } }, { tdd_phase: 'RED' });
    t.after(p.cleanup);
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 1, expected: 3, done: 1 }));
    assert.equal((await p.hook('Stop', { session_id: 'b' })).stdout, '');
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 1, expected: 3, done: 1, blocked_agents: ['x'] }));
    assert.match(json(await p.hook('Stop', { session_id: 'b' })).reason, /BLOCKED: x\./);
    // Gemini continues a blocked AfterAgent: the deny carries the same reason.
    const gemini = json(await p.hook('AfterAgent', { session_id: 'g' }, { host: 'gemini' }));
    assert.equal(gemini.decision, 'deny');
    assert.match(gemini.reason, /BLOCKED: x\./);
    // Cursor: the reason is the follow-up message it sends the agent.
    assert.match(
      json(await p.hook('stop', { conversation_id: 'c' }, { host: 'cursor' })).followup_message,
      /BLOCKED: x\./,
    );
  });

  it('the board gate names open and held items and the wait command; an unreadable board blocks', async (t) => {
    const p = project({ profile: 'tdd', stop: { waveGate: 'off', boardGate: 'pending' } });
    t.after(p.cleanup);
    const stop = (session: string) => p.hook('Stop', { session_id: session });
    assert.equal((await stop('empty')).stdout, '', 'no board: nothing open');
    const board = new Board({ cwd: p.dir, env: p.env });
    await board.add({ id: 'api', title: 'the API' });
    await board.add({ id: 'ui', title: 'the UI', after: ['api'] });
    await board.add({ id: 'docs', title: 'the docs' });
    assert.equal((await board.claim('api', 'agent-1')).claimed, 'api');
    assert.equal((await board.claim('docs', 'agent-2')).claimed, 'docs');
    await board.block('docs', 'agent-2', 'no access');
    const reason = json(await stop('pending')).reason as string;
    assert.match(reason, /^✗ 3 work-board item\(s\) not done:/);
    assert.match(reason, /• api \(the API\): held by agent-1 until \d{4}-/);
    assert.match(reason, /• ui \(the UI\): open, waits for api/);
    assert.match(reason, /• docs \(the docs\): blocked: no access/);
    assert.match(
      reason,
      /Fix: {2}wait for them \(baton work wait api ui docs --all --timeout 600; in Claude Code give that Bash call a timeout of 600000 ms/,
    );

    // "held": only what an agent holds keeps the turn going.
    p.write('baton.config.json', JSON.stringify({ profile: 'tdd', stop: { waveGate: 'off', boardGate: 'held' } }));
    const held = json(await stop('held')).reason as string;
    assert.match(held, /^✗ 1 work-board item\(s\) still held by agents:\n {2}• api /);
    await board.done('api', 'agent-1');
    assert.equal((await stop('held-done')).stdout, '');

    // A board that is not JSON cannot be counted: blocked, naming the fix (a gated event fails closed).
    p.write('.claude/state/board.json', '{"items": ');
    const broken = json(await stop('broken')).reason as string;
    assert.match(
      broken,
      /^✗ The work board could not be read \(.*\)\.\n {2}Fix: {2}run baton doctor, or set stop\.boardGate to "off"/,
    );
  });

  it('the ratchet preset blocks a file under its floor, and a missing artifact once the task is verified', async (t) => {
    const p = project({ profile: 'eneo' }, { status: 'in-progress' });
    t.after(p.cleanup);
    const stop = (session: string) => p.hook('Stop', { session_id: session });
    assert.equal((await stop('none')).stdout, '', 'no floors: nothing to ratchet');
    p.write('.claude/ratchet/coverage.json', JSON.stringify({ 'app/a.py': 80, 'app/gone.py': 90, note: 'x' }));
    p.write('.claude/ratchet/mutation.json', JSON.stringify({ 'app/a.py': 60 }));
    // Floors but no current artifact: only a verified task must have them.
    assert.equal((await stop('in-progress')).stdout, '');
    p.write(TASK, JSON.stringify({ slug: 'demo', lane: 'fast', status: 'verified' }));
    const missing = json(await stop('verified')).reason as string;
    assert.match(missing, /current coverage artifact is missing \(.*\.claude\/ratchet\/\.current\/coverage\.json\)/);
    assert.match(missing, /current mutation artifact is missing/);

    // coverage.py's JSON at the root, mutmut's beside it: a file under its floor fails, one above passes.
    p.write(
      'coverage.json',
      JSON.stringify({ files: { 'app/a.py': { summary: { percent_covered: 75.5 } }, 'app/b.py': {} } }),
    );
    p.write('mutmut.json', JSON.stringify({ files: { 'app/a.py': { score: 70 } } }));
    const regressed = json(await stop('regressed')).reason as string;
    assert.equal(
      regressed,
      [
        '✗ Coverage/mutation ratchet failed:',
        '  • coverage regression: app/a.py — floor 80.0%, actual 75.5%',
        '  Fix:  bring the files back to their floors, or generate the current artifacts before finishing.',
      ].join('\n'),
    );
    // The artifacts under .claude/ratchet/.current/ win over the project's.
    p.write(
      '.claude/ratchet/.current/coverage.json',
      JSON.stringify({ files: { 'app/a.py': { summary: { percent_covered: 81 } } } }),
    );
    p.write('.claude/ratchet/.current/mutation.json', JSON.stringify({ files: { 'app/a.py': { score: 'n/a' } } }));
    assert.match(json(await stop('current')).reason, /mutation regression: app\/a\.py — floor 60\.0%, actual 0\.0%/);
    p.write('.claude/ratchet/.current/mutation.json', JSON.stringify({ files: { 'app/a.py': { score: 60 } } }));
    assert.equal((await stop('fixed')).stdout, '');
  });

  it('an oversize floors file fails the Stop closed rather than reading as no floors', async (t) => {
    const p = project({ profile: 'eneo' }, { status: 'verified' });
    t.after(p.cleanup);
    p.write('.claude/ratchet/coverage.json', '{}');
    truncateSync(join(p.dir, '.claude/ratchet/coverage.json'), 256 * 1024 * 1024 + 1);
    const answer = json(await p.hook('Stop', { session_id: 'big' }));
    assert.equal(answer.decision, 'block');
    assert.match(answer.reason, /^baton: the Stop hook failed \(.*coverage\.json.*\), so baton could not check this/);
  });
});

describe('PreCompact', () => {
  it('saves one revision of each document and the scratchpad, once per change', async (t) => {
    const p = project({ profile: 'eneo' });
    t.after(p.cleanup);
    const task = openDoc(TASK, { cwd: p.dir, env: p.env });
    await task.init({ slug: 'demo', lane: 'fast', bracket: 1, tenancy_impact: 'none', audit_impact: 'none' });
    const run = openDoc('.ai_log/session-1.json', { cwd: p.dir, env: p.env });
    await run.init({ steps: [] });
    p.write('.claude/phases/demo/phase-01-scratchpad/notes.md', 'remember the fixture\n');
    p.write('.claude/phases/demo/phase-01-scratchpad/sub/ignored.md', 'a folder is not read\n');

    const first = await p.hook('PreCompact', { trigger: 'auto' });
    assert.equal(first.code, 0);
    assert.match(first.stderr, /\[pre-compact\] task document saved as revision \d+/);
    assert.match(first.stderr, /\[pre-compact\] \.ai_log\/session-1\.json saved as revision \d+/);
    assert.match(first.stderr, /\[pre-compact\] snapshotted scratchpad to .*\.claude\/context\/demo-\d{8}T\d{6}Z\.md/);
    const [snapshot] = readdirSync(join(p.dir, '.claude/context'));
    const text = p.read(`.claude/context/${snapshot}`);
    assert.match(text, /^# Scratchpad snapshot — slug: demo, timestamp: \d{8}T\d{6}Z\n\nCaptured at PreCompact\./);
    assert.match(text, /## notes\.md\n\n```\nremember the fixture\n```/);
    assert.doesNotMatch(text, /ignored/);
    assert.equal((await task.history({ limit: 1 }))[0]?.op.kind, 'snapshot');

    // Gemini fires PreCompress before every model call: nothing changed, nothing new is saved.
    const again = await p.hook('PreCompress', {}, { host: 'gemini' });
    assert.match(again.stderr, /task document unchanged since revision \d+/);
    assert.match(again.stderr, /scratchpad unchanged since/);
    assert.equal(readdirSync(join(p.dir, '.claude/context')).length, 1);

    // $CLAUDE_SCRATCHPAD_DIR names the folder outright.
    p.write('elsewhere/pad.md', 'other notes\n');
    const named = await answerHook({
      event: 'PreCompact',
      payload: '{}',
      cwd: p.dir,
      env: { ...p.env, CLAUDE_SCRATCHPAD_DIR: 'elsewhere' },
      goalHooks: () => Promise.reject(new Error('no')),
    });
    assert.match(named.stderr, /snapshotted scratchpad/);
  });

  it('a document that cannot be saved is logged and the rest goes on; without a task no scratchpad is read', async (t) => {
    const p = project({ profile: 'tdd' });
    t.after(p.cleanup);
    p.write('.ai_log/session-1.json', '{"not": json');
    const answer = await p.hook('PreCompact', {});
    assert.equal(answer.code, 0);
    assert.match(answer.stderr, /\[pre-compact\] \.ai_log\/session-1\.json not saved: /);
    assert.equal(existsSync(join(p.dir, '.claude/context')), false);
  });
});

describe('UserPromptSubmit audit', () => {
  const config = {
    profile: 'eneo',
    audit: { file: '.claude/stats/prompts.jsonl', maxLines: 3, prefix: '[eneo-audit]' },
  };

  it('records a hash and the length of each user prompt, keeps the last maxLines, and refreshes the task', async (t) => {
    const p = project(config);
    t.after(p.cleanup);
    // A task last touched long ago (as `baton task init` makes it): the prompt is activity on it.
    const long = () => new Date('2020-01-01T00:00:00Z');
    await openDoc(TASK, { cwd: p.dir, env: p.env, now: long }).init(
      { slug: 'demo', lane: 'fast', bracket: 1, tenancy_impact: 'none', audit_impact: 'none' },
      { schema: 'eneo-task' },
    );
    assert.equal(JSON.parse(p.read(TASK)).last_update, '2020-01-01T00:00:00Z');
    for (const prompt of ['one', 'two', 'three', 'four\n\n'])
      assert.match(
        (await p.hook('UserPromptSubmit', { prompt, session_id: 's' })).stderr,
        /\[eneo-audit\] current slug: demo \(phase=FREE\)/,
      );
    const lines = p
      .read('.claude/stats/prompts.jsonl')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((r) => [r.slug, r.len]),
      [
        ['demo', 3],
        ['demo', 5],
        ['demo', 4],
      ],
    );
    assert.ok(!p.read('.claude/stats/prompts.jsonl').includes('four'));
    assert.notEqual(JSON.parse(p.read(TASK)).last_update, '2020-01-01T00:00:00Z', 'the task stamp was refreshed');
  });

  it('the host speaking is not the user: task notifications, subagents and an echoed Stop reason are not counted', async (t) => {
    const p = project(config, { tdd_phase: 'GREEN' });
    t.after(p.cleanup);
    const audit = (payload: object, host?: string) =>
      p.hook(host === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit', payload, { host });
    assert.match(
      (await audit({ prompt: '<task-notification>agent done</task-notification>' })).stderr,
      /background task notification; not counted/,
    );
    assert.match(
      (await audit({ prompt: 'do it', agent_id: 'sub-1' })).stderr,
      /a subagent's prompt \(agent sub-1\); not counted/,
    );
    // Gemini continues a blocked AfterAgent with the block's reason as a new prompt.
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 1, expected: 2, done: 0 }));
    const block = json(await p.hook('AfterAgent', { session_id: 'g' }, { host: 'gemini' }));
    assert.equal(block.decision, 'deny');
    assert.match(
      (await audit({ prompt: block.reason, session_id: 'g' }, 'gemini')).stderr,
      /Stop block's reason sent back by the host/,
    );
    assert.equal(existsSync(join(p.dir, '.claude/stats/prompts.jsonl')), false);
    // The user's own prompt is.
    await audit({ prompt: 'carry on', session_id: 'g' }, 'gemini');
    assert.equal(p.read('.claude/stats/prompts.jsonl').split('\n').length, 2);
  });

  it('without a task nothing is created; a task the store refuses to stamp is only logged', async (t) => {
    const p = project(config);
    t.after(p.cleanup);
    await p.hook('UserPromptSubmit', { prompt: 'hello' });
    assert.equal(existsSync(join(p.dir, '.claude')), false, 'no stats folder in a project without a task');
    // A task file baton cannot parse: the prompt is audited, the stamp is not refreshed, and the file is kept.
    p.write(TASK, '{"slug": "demo",');
    const answer = await p.hook('UserPromptSubmit', { prompt: 'hello' });
    assert.match(answer.stderr, /\[audit\] task stamp not refreshed: /);
    assert.equal(p.read(TASK), '{"slug": "demo",');
  });
});

describe('SessionStart', () => {
  it('says which context file it loaded; a context file past its read bound is refused, not skipped', async (t) => {
    const p = project({ profile: 'eneo' }, { tdd_phase: 'REFACTOR', phase: 2, phase_total: 4, wave: 1, wave_total: 3 });
    t.after(p.cleanup);
    p.write('.claude/state/phase', 'REFACTOR\n');
    p.write('.claude/rules/eneo-context.md', 'one\ntwo\n');
    const answer = await p.hook('SessionStart', { source: 'startup' });
    assert.equal(answer.stdout, 'Resume: demo · Phase 2/4 · Wave 1/3 · REFACTOR\n');
    assert.match(answer.stderr, /\[eneo-context\] loaded eneo-context\.md \(2 lines\) from /);
    assert.match(answer.stderr, /\[eneo-context\] current TDD phase: REFACTOR/);

    truncateSync(join(p.dir, '.claude/rules/eneo-context.md'), 16 * 1024 * 1024 + 1);
    const refused = await p.hook('SessionStart', {});
    // Not a gated event: the session starts, and the line says what was refused.
    assert.equal(refused.code, 0);
    assert.match(refused.stderr, /^\[baton hook\] SessionStart did nothing, allowing: .*eneo-context\.md/);
  });
});
