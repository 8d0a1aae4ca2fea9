/**
 * Who an agent is on the work board, through the real hook processes as Claude Code calls them
 * (payload shapes as Claude Code 2.1.328 sends them, recorded: a subagent's calls carry agent_id,
 * the session's own agent's do not). SubagentStart tells a subagent its name; the PreToolUse hook
 * binds the calling agent to a `baton work` shell call (the rewritten command is run by bash here,
 * as the host runs it), and a call under another agent's name is refused at the hook and by
 * `baton work` itself. SubagentStop and SessionEnd end the claims of the agent or session that ended.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, CLI } from '../helpers/cli.js';
import { decision, eneoProject } from '../harness/helpers.js';
import { BOARD_KEY } from '../../src/board/model.js';
import { BOARD_FILE } from '../../src/project/policy/state-files.js';

const SESSION = '3c40ae9f-3f1e-4d53-a16a-14068a4758b2';

/** A project with no baton.config.json: the board alone turns its hooks on. */
function boardProject() {
  const p = eneoProject({}, {});
  rmSync(join(p.dir, 'baton.config.json'));
  const work = (args: string[], env: Record<string, string> = {}) =>
    baton(['work', ...args], { cwd: p.dir, env: { ...p.env, ...env } });
  return { ...p, work };
}

const subagent = (agent: string, extra: Record<string, unknown> = {}) => ({
  session_id: SESSION,
  agent_id: agent,
  agent_type: 'general-purpose',
  ...extra,
});

/** The command Claude Code runs after the hook: the rewrite when there is one. */
function rewritten(result: { stdout: string }): string | undefined {
  if (result.stdout.trim() === '') return undefined;
  const out = JSON.parse(result.stdout) as { hookSpecificOutput?: { updatedInput?: { command?: string } } };
  return out.hookSpecificOutput?.updatedInput?.command;
}

/** Runs `command` with bash as the host would, `baton` on PATH being this build. */
function runAsHost(dir: string, env: Record<string, string>, command: string) {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  return spawnSync('/bin/bash', ['-c', command], {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, ...env },
    encoding: 'utf8',
  });
}

describe('agent identity on the work board', () => {
  it('the board key the hooks check is the board document itself', () => {
    assert.equal(BOARD_FILE, BOARD_KEY);
  });

  it('SubagentStart tells a subagent its board name, only where a board is', (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    assert.equal(p.hook('SubagentStart', subagent('a4dfaab062324b293')).stdout, '', 'no board: nothing said');
    assert.equal(p.work(['add', 'api', '--title', 'API']).code, 0);
    const said = JSON.parse(p.hook('SubagentStart', subagent('a4dfaab062324b293')).stdout);
    assert.equal(said.hookSpecificOutput.hookEventName, 'SubagentStart');
    assert.match(said.hookSpecificOutput.additionalContext, /you are agent a4dfaab062324b293\./);
    assert.match(said.hookSpecificOutput.additionalContext, /leave out --as/);
  });

  it("a subagent's `baton work claim` runs as that agent, in its session; `done` finds the claim it made", (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    p.work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']);
    const claim = p.hook('PreToolUse', {
      ...subagent('a4dfaab062324b293'),
      tool_name: 'Bash',
      tool_input: { command: 'baton work claim --lease 600' },
      cwd: p.dir,
    });
    const command = rewritten(claim);
    assert.ok(command, claim.stdout + claim.stderr);
    const ran = runAsHost(p.dir, p.env, command);
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, 'api\n');
    const board = p.json(BOARD_KEY) as { items: { api: { claim: Record<string, unknown> } } };
    assert.equal(board.items.api.claim.agent, 'a4dfaab062324b293');
    assert.equal(board.items.api.claim.session, SESSION);
    // The session's own agent is `main`: its `done` on the subagent's item is refused.
    const main = rewritten(
      p.hook('PreToolUse', {
        session_id: SESSION,
        tool_name: 'Bash',
        tool_input: { command: 'baton work done api' },
        cwd: p.dir,
      }),
    );
    assert.ok(main);
    const refused = runAsHost(p.dir, p.env, main);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /main holds no claim on item api \(it is held by a4dfaab062324b293\)/);
    const done = rewritten(
      p.hook('PreToolUse', {
        ...subagent('a4dfaab062324b293'),
        tool_name: 'Bash',
        tool_input: { command: 'baton work done api' },
        cwd: p.dir,
      }),
    );
    assert.equal(runAsHost(p.dir, p.env, done as string).status, 0);
  });

  it("a call under another agent's name is denied at the hook, whoever asks", (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    p.work(['add', 'api', '--title', 'API']);
    const ask = (payload: Record<string, unknown>, command: string) =>
      decision(p.hook('PreToolUse', { ...payload, tool_name: 'Bash', tool_input: { command }, cwd: p.dir }));
    const sub = subagent('a4dfaab062324b293');
    const main = { session_id: SESSION };
    for (const [who, command, named] of [
      [sub, 'baton work claim --as agent-1', /'agent-1', but it comes from agent a4dfaab062324b293/],
      [sub, `baton work claim --as ${SESSION}`, /but it comes from agent a4dfaab062324b293/],
      [main, 'baton work done api --as a4dfaab062324b293', /comes from agent main/],
      [sub, 'BATON_AGENT=main baton work claim', /sets BATON_AGENT itself/],
      [main, 'export BATON_SESSION=x; baton work claim', /sets BATON_SESSION itself/],
    ] as const) {
      const answer = ask(who, command);
      assert.equal(answer.kind, 'deny', command);
      assert.match(answer.reason, named, command);
    }
    assert.equal(ask(sub, 'baton work claim --as a4dfaab062324b293').kind, 'allow');
    assert.equal(ask(main, 'baton work ready').kind, 'allow');
  });

  it("no agent lifts another's claim (and its reservation) by reopening the item; the holder may, and anyone may reopen a done item", (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    p.work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']);
    assert.equal(p.work(['claim', 'api'], { BATON_AGENT: 'a1', BATON_SESSION: SESSION }).code, 0);
    const before = p.read(BOARD_KEY);
    const command = rewritten(
      p.hook('PreToolUse', {
        ...subagent('a2'),
        tool_name: 'Bash',
        tool_input: { command: 'baton work reopen api' },
        cwd: p.dir,
      }),
    );
    const refused = runAsHost(p.dir, p.env, command as string);
    assert.equal(refused.status, 1);
    assert.match(
      refused.stderr,
      /item api is held by a1 until .*; nothing was written; only its holder can give it back/,
    );
    assert.equal(p.work(['reopen', 'api']).code, 1, 'nor anyone unnamed');
    assert.equal(p.read(BOARD_KEY), before);
    assert.equal(p.work(['reopen', 'api'], { BATON_AGENT: 'a1' }).code, 0);
    assert.equal(p.work(['claim', 'api'], { BATON_AGENT: 'a1' }).code, 0);
    assert.equal(p.work(['done', 'api'], { BATON_AGENT: 'a1' }).code, 0);
    assert.equal(p.work(['reopen', 'api'], { BATON_AGENT: 'a2' }).code, 0);
  });

  it('baton work refuses --as other than BATON_AGENT (exit 5, nothing written), and uses BATON_AGENT without --as', (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    p.work(['add', 'api', '--title', 'API']);
    const before = p.read(BOARD_KEY);
    const forged = p.work(['claim', '--as', 'agent-1'], { BATON_AGENT: 'a1' });
    assert.equal(forged.code, 5, forged.stderr);
    assert.match(
      forged.stderr,
      /--as agent-1 is not the agent running this command \(a1\); nothing was written; drop --as/,
    );
    assert.equal(p.read(BOARD_KEY), before);
    assert.equal(p.work(['claim', '--as', 'a1'], { BATON_AGENT: 'a1' }).stdout, 'api\n');
    assert.equal(p.work(['done', 'api'], { BATON_AGENT: 'a1' }).code, 0);
    const unnamed = p.work(['claim']);
    assert.equal(unnamed.code, 2);
    assert.match(unnamed.stderr, /needs --as AGENT .*or BATON_AGENT/);
  });

  it('SubagentStop gives back what that subagent held, SessionEnd what its session held; history says why', (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    for (const id of ['a', 'b', 'c', 'd']) p.work(['add', id, '--title', id.toUpperCase()]);
    const claim = (id: string, agent: string, session?: string) =>
      assert.equal(
        p.work(['claim', id], { BATON_AGENT: agent, ...(session ? { BATON_SESSION: session } : {}) }).code,
        0,
      );
    claim('a', 'a111', SESSION);
    claim('b', 'a222', SESSION);
    claim('c', 'a111', 'other-session');
    claim('d', 'agent-x');
    const holders = () =>
      Object.fromEntries(
        Object.entries((p.json(BOARD_KEY) as { items: Record<string, { claim?: { agent: string } }> }).items).map(
          ([id, item]) => [id, item.claim?.agent ?? null],
        ),
      );
    const stop = p.hook('SubagentStop', {
      ...subagent('a111'),
      last_assistant_message: 'done',
      stop_hook_active: false,
    });
    assert.equal(stop.code, 0, stop.stderr);
    assert.deepEqual(holders(), { a: null, b: 'a222', c: 'a111', d: 'agent-x' }, 'only a111 of this session');
    assert.deepEqual(JSON.parse(p.work(['ready', '--json']).stdout), ['a']);
    const end = p.hook('SessionEnd', { session_id: SESSION, reason: 'other' });
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(
      holders(),
      { a: null, b: null, c: 'a111', d: 'agent-x' },
      "the other session's and the unbound claim hold",
    );
    const history = baton(['history', BOARD_KEY, '--json'], { cwd: p.dir, env: p.env });
    assert.match(history.stdout, new RegExp(`SubagentStop: agent a111 ended`));
    assert.match(history.stdout, new RegExp(`SessionEnd: session ${SESSION} ended \\(other\\)`));
    // Nothing held: no commit.
    const revs = history.stdout.match(/"rev"/g)?.length;
    p.hook('SubagentStop', { ...subagent('a999'), last_assistant_message: 'done' });
    assert.equal(
      baton(['history', BOARD_KEY, '--json'], { cwd: p.dir, env: p.env }).stdout.match(/"rev"/g)?.length,
      revs,
    );
  });

  it("a goal profile's project (orchestrate) with a board: reservations hold, SubagentStop and SessionEnd end claims", (t) => {
    const p = eneoProject({}, { profile: 'orchestrate' });
    t.after(p.cleanup);
    const work = (args: string[], env: Record<string, string> = {}) =>
      baton(['work', ...args], { cwd: p.dir, env: { ...p.env, ...env } });
    work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']);
    work(['add', 'ui', '--title', 'UI']);
    assert.equal(work(['claim', 'api'], { BATON_AGENT: 'a1', BATON_SESSION: SESSION }).code, 0);
    assert.equal(work(['claim', 'ui'], { BATON_AGENT: 'main', BATON_SESSION: SESSION }).code, 0);
    const write = (agent: string) =>
      decision(
        p.hook('PreToolUse', {
          ...subagent(agent),
          tool_name: 'Write',
          tool_input: { file_path: join(p.dir, 'src/api/x.ts'), content: '' },
        }),
      );
    assert.equal(write('a2').kind, 'deny');
    assert.match(write('a2').reason, /held by a1/);
    assert.equal(write('a1').kind, 'allow');
    assert.match(p.hook('SubagentStart', subagent('a2')).stdout, /you are agent a2\./);
    p.hook('SubagentStop', { ...subagent('a1'), last_assistant_message: 'done' });
    assert.equal(write('a2').kind, 'allow');
    const end = p.hook('SessionEnd', { session_id: SESSION, reason: 'clear' });
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(JSON.parse(work(['ready', '--json']).stdout), ['api', 'ui']);
  });

  it('no board, no config: the board hooks stay silent and write nothing', (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    for (const [event, payload] of [
      ['SubagentStop', { ...subagent('a111'), last_assistant_message: 'x' }],
      ['SessionEnd', { session_id: SESSION }],
      [
        'PreToolUse',
        { ...subagent('a111'), tool_name: 'Write', tool_input: { file_path: join(p.dir, 'x'), content: '' } },
      ],
    ] as const) {
      const result = p.hook(event, payload);
      assert.deepEqual([result.code, result.stdout], [0, ''], event);
    }
    assert.equal(existsSync(join(p.dir, '.claude')), false);
  });
});
