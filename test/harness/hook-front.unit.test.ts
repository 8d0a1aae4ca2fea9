import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hostEvents } from '../../src/harness/hooks/events.js';
import { answerHook } from '../../src/harness/hooks/hook-front.js';
import type { Rendered } from '../../src/harness/hooks/types.js';
import { tempTree } from '../helpers/fixtures.js';
import { frontProject } from './front-project.js';

/**
 * The hook front (`answerHook`), in-process: what `baton hook` and `baton serve` both answer, for
 * each host's protocol. The payload is handed over as the text the face read (stdin or a body);
 * reading stdin itself is the process tests' part (test/paths/temp-and-stdin.test.ts).
 */

const TASK = '.claude/state/current-task.json';

/** A project on the tdd profile (or the given config), with a task in `phase` when one is given. */
function project(config: object = { profile: 'tdd' }, phase?: string) {
  const p = frontProject(config);
  if (phase !== undefined) {
    p.write(TASK, `${JSON.stringify({ slug: 'demo', lane: 'fast', tdd_phase: phase, next_hint: 'write the code' })}\n`);
    p.write('.claude/state/phase', `${phase}\n`);
  }
  return p;
}

const json = (rendered: Rendered): Record<string, any> => JSON.parse(rendered.stdout) as Record<string, any>;

describe('the hook front, each host', () => {
  it('a test written in GREEN is denied and a source file passes, in each host protocol', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    const test = join(p.dir, 'src', 'a.test.ts');
    const source = join(p.dir, 'src', 'a.ts');

    const claude = await p.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: test, content: '' } });
    assert.equal(claude.code, 0);
    assert.equal(json(claude).hookSpecificOutput.permissionDecision, 'deny');
    assert.match(json(claude).hookSpecificOutput.permissionDecisionReason, /\[baton rule gate-green\]$/);
    assert.match(claude.stderr, /Blocked: attempted to edit test file during GREEN phase/);
    const allowed = await p.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: source, content: '' } });
    assert.deepEqual(allowed, { stdout: '', stderr: '', code: 0 });

    const codex = await p.hook(
      'PreToolUse',
      { tool_name: 'Edit', tool_input: { file_path: test, old_string: 'a', new_string: 'b' } },
      { host: 'codex' },
    );
    assert.equal(json(codex).hookSpecificOutput.permissionDecision, 'deny');

    const gemini = await p.hook(
      'BeforeTool',
      { tool_name: 'write_file', tool_input: { file_path: test, content: '' } },
      { host: 'gemini' },
    );
    assert.equal(json(gemini).decision, 'deny');
    assert.match(json(gemini).reason, /gate-green/);
    const geminiSource = await p.hook(
      'BeforeTool',
      { tool_name: 'replace', tool_input: { file_path: source } },
      { host: 'gemini' },
    );
    assert.equal(geminiSource.stdout, '');

    const cursor = await p.hook(
      'preToolUse',
      { tool_name: 'StrReplace', tool_input: { path: test }, workspace_roots: [p.dir] },
      { host: 'cursor' },
    );
    assert.equal(json(cursor).permission, 'deny');
    assert.equal(json(cursor).user_message, json(cursor).agent_message);
    assert.match(p.log(), /deny by gate-green: Write .*a\.test\.ts/);
  });

  it('SessionStart puts the resume line in front of the model, in each host protocol', async (t) => {
    const p = project({ profile: 'tdd' }, 'RED');
    t.after(p.cleanup);
    const claude = await p.hook('SessionStart', { source: 'compact' });
    assert.equal(claude.stdout, 'Resume: demo · RED · Next: write the code\n', 'plain stdout is context');
    assert.match(claude.stderr, /\[baton\] current TDD phase: RED/);
    assert.equal((await p.hook('SessionStart', {}, { host: 'codex' })).stdout, claude.stdout);
    const gemini = json(await p.hook('SessionStart', {}, { host: 'gemini' }));
    assert.deepEqual(gemini.hookSpecificOutput, {
      hookEventName: 'SessionStart',
      additionalContext: 'Resume: demo · RED · Next: write the code',
    });
    assert.equal(
      json(await p.hook('sessionStart', {}, { host: 'cursor' })).additional_context,
      gemini.hookSpecificOutput.additionalContext,
    );

    // The phase mirror wins over the document; FREE is said by no line at all.
    p.write('.claude/state/phase', 'FREE\n');
    assert.doesNotMatch((await p.hook('SessionStart', {})).stderr, /current TDD phase/);
  });

  it('every event name of every host answers in its protocol: exit 0, and stdout empty, context or one JSON object', async (t) => {
    const p = project({ profile: 'eneo' }, 'RED');
    t.after(p.cleanup);
    for (const host of ['claude', 'codex', 'gemini', 'cursor'] as const)
      for (const event of Object.keys(hostEvents(host))) {
        const answer = await p.hook(
          event,
          { session_id: `${host}-${event}`, prompt: 'hi', tool_name: 'Read' },
          { host },
        );
        assert.equal(answer.code, 0, `${host} ${event}: ${answer.stderr}`);
        if (answer.stdout.startsWith('{')) assert.equal(typeof json(answer), 'object', `${host} ${event}`);
        else assert.match(answer.stdout, /^(|Resume: demo[^\n]*\n)$/, `${host} ${event}`);
      }
  });

  it("a subagent's DONE is counted into the wave by each host that reports subagents", async (t) => {
    const p = project({ profile: 'tdd' }, 'RED');
    t.after(p.cleanup);
    p.write('.claude/state/wave.json', JSON.stringify({ wave: 1, expected: 3, done: 0 }));
    const stops: [string, string | undefined][] = [
      ['SubagentStop', undefined],
      ['SubagentStop', 'codex'],
      ['subagentStop', 'cursor'],
    ];
    for (const [i, [event, host]] of stops.entries())
      assert.equal(
        (await p.hook(event, { agent_id: `a${i}`, last_assistant_message: `DONE|part ${i}` }, { host })).code,
        0,
      );
    const wave = JSON.parse(readFileSync(join(p.dir, '.claude/state/wave.json'), 'utf8'));
    assert.deepEqual([wave.done, wave.seen_agents], [3, ['a0', 'a1', 'a2']]);
    // The same agent's stop reported twice counts once.
    await p.hook('SubagentStop', { agent_id: 'a0', last_assistant_message: 'DONE|part 0' });
    assert.equal(JSON.parse(readFileSync(join(p.dir, '.claude/state/wave.json'), 'utf8')).done, 3);
  });

  it('an event a host does not have is a configuration error; one baton ignores is silent', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const silent = { stdout: '', stderr: '', code: 0 };
    for (const [event, host] of [
      ['PostToolUse', undefined],
      ['AfterTool', 'gemini'],
      ['afterFileEdit', 'cursor'],
      ['', undefined],
    ] as const)
      assert.deepEqual(await p.hook(event, { tool_name: 'Write' }, { host }), silent, `${event} ${host}`);
    // A host baton has no adapter for (a typo of --host) decides nothing rather than guessing a protocol.
    assert.deepEqual(await p.hook('PreToolUse', { tool_name: 'Write' }, { host: 'claude-code' }), silent);

    // Without a tool call: exit 1 and one line naming the events the host does have.
    const typo = await p.hook('pretooluse', {});
    assert.equal(typo.code, 1);
    assert.match(
      typo.stderr,
      /^baton hook: unknown event 'pretooluse'; baton handles SessionStart, .*PreToolUse.*\(names are case-sensitive\)/,
    );
    assert.match(p.log(), /unknown event 'pretooluse'/);
    // `toString` is not an event, whatever Object.prototype has.
    assert.equal((await p.hook('toString', {})).code, 1);

    // With one, a deny in the host's protocol: the tool gate it was meant to be is not running.
    const gemini = await p.hook('PreToolUse', { tool_name: 'write_file', tool_input: {} }, { host: 'gemini' });
    assert.equal(json(gemini).decision, 'deny');
    assert.match(json(gemini).reason, /unknown event 'PreToolUse' for gemini; baton handles .*BeforeTool/);
    assert.match(json(gemini).reason, /\[baton rule unknown-event\]/);
    const claude = await p.hook('Pretooluse', { toolName: 'Bash' });
    assert.equal(json(claude).hookSpecificOutput.permissionDecision, 'deny');
  });

  it('without a config file or a profile every event is silent and nothing is written', async (t) => {
    const tree = tempTree({ '.keep': '' });
    t.after(tree.cleanup);
    const env = { BATON_ROOT: tree.dir, BATON_DEBUG_LOG: join(tree.dir, 'debug.log'), TMPDIR: tree.dir };
    for (const event of ['PreToolUse', 'Stop', 'SessionStart'])
      assert.deepEqual(
        await answerHook({
          event,
          payload: 'garbage',
          cwd: tree.dir,
          env,
          goalHooks: () => Promise.reject(new Error('no')),
        }),
        { stdout: '', stderr: '', code: 0 },
      );
  });

  it('an event the profile does not handle returns before the engine; the config sections turn one on', async (t) => {
    // tdd has no UserPromptSubmit: silent, whatever the payload.
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    assert.deepEqual(await p.hook('UserPromptSubmit', 'not json'), { stdout: '', stderr: '', code: 0 });
    // A project without a profile gets only what its sections ask for.
    const q = project({ audit: { file: '.claude/stats/prompts.jsonl', maxLines: 10, prefix: '[audit]' } });
    t.after(q.cleanup);
    assert.deepEqual(await q.hook('SessionStart', {}), { stdout: '', stderr: '', code: 0 });
    mkdirSync(join(q.dir, '.claude', 'stats'), { recursive: true });
    assert.equal((await q.hook('UserPromptSubmit', { prompt: 'hello' })).code, 0);
    const record = JSON.parse(readFileSync(join(q.dir, '.claude/stats/prompts.jsonl'), 'utf8'));
    assert.deepEqual(Object.keys(record).sort(), ['hash', 'len', 'slug', 'ts']);
    assert.equal(record.len, 5, 'the length and a hash, never the prompt');
  });
});

describe('the hook front when baton itself fails', () => {
  const write = (dir: string) => ({
    tool_name: 'Write',
    tool_input: { file_path: join(dir, 'src', 'a.ts'), content: '' },
  });

  it('garbage, an array or an empty body denies a gated tool call and blocks a gated Stop, in each host protocol', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    for (const body of ['{"tool_name": "Write",', '[1, 2]', '', '"a string"']) {
      const claude = await p.hook('PreToolUse', body);
      assert.equal(json(claude).hookSpecificOutput.permissionDecision, 'deny', JSON.stringify(body));
      assert.match(
        json(claude).hookSpecificOutput.permissionDecisionReason,
        /^baton: the PreToolUse hook's stdin was not a JSON object of at most 32 MiB, so baton could not check this call; fix the hook's caller/,
      );
    }
    assert.equal(json(await p.hook('BeforeTool', '}{', { host: 'gemini' })).decision, 'deny');
    assert.equal(json(await p.hook('preToolUse', '}{', { host: 'cursor' })).permission, 'deny');
    assert.equal(
      json(await p.hook('PreToolUse', '}{', { host: 'codex' })).hookSpecificOutput.permissionDecision,
      'deny',
    );
    // Stop with a barrier (the wave gate): blocked with the same line.
    const stop = json(await p.hook('Stop', 'nope'));
    assert.equal(stop.decision, 'block');
    assert.match(stop.reason, /the Stop hook's stdin was not a JSON object/);
    assert.equal(json(await p.hook('AfterAgent', 'nope', { host: 'gemini' })).decision, 'deny');
    assert.match(p.log(), /fail closed \(bad-payload\)/);
  });

  it('a payload past 32 MiB reads as garbage: denied, even when it is whole and valid', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    // A stdin read that gets the bound's last bytes in its final chunk hands over the whole text.
    const head = JSON.stringify(write(p.dir)).slice(0, -1);
    const bound = 32 * 1024 * 1024;
    const oversize = `${head},"pad":"${'x'.repeat(bound + 1 - head.length - 10)}"}`;
    assert.equal(Buffer.byteLength(oversize), bound + 1);
    const answer = json(await p.hook('PreToolUse', oversize));
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /\[baton rule bad-payload\]/);
    // At the bound itself it is a payload like any other: a source write passes.
    const at = `${head},"pad":"${'x'.repeat(bound - head.length - 10)}"}`;
    assert.equal((await p.hook('PreToolUse', at)).stdout, '');
  });

  it('garbage on an ungated event is silent, and the debug log says why', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    assert.deepEqual(await p.hook('SubagentStop', 'garbage'), { stdout: '', stderr: '', code: 0 });
    assert.match(p.log(), /SubagentStop stdin was not a JSON object; nothing to decide, exiting 0/);
    // An event with nothing to read in its payload runs on `{}` and says so in the log only.
    const start = await p.hook('SessionStart', 'garbage');
    assert.match(start.stdout, /^Resume: demo/);
    assert.match(p.log(), /SessionStart \[baton hook\] stdin was not a JSON object; read as \{\}/);
    // A Read is no gated call: its garbage-free payload with an unknown tool passes.
    assert.equal((await p.hook('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'x' } })).stdout, '');
  });

  it('a phase mirror or wave file past its read bound fails the gate closed, naming the file', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    // Read as "no phase", a mirror too large to read would let a GREEN test write through.
    truncateSync(join(p.dir, '.claude/state/phase'), 1024 * 1024 + 1);
    const test = { tool_name: 'Write', tool_input: { file_path: join(p.dir, 'src', 'a.test.ts'), content: '' } };
    const denied = json(await p.hook('PreToolUse', test)).hookSpecificOutput;
    assert.equal(denied.permissionDecision, 'deny');
    assert.match(
      denied.permissionDecisionReason,
      /^baton: the PreToolUse hook failed \(.*\.claude\/state\/phase.*\), so baton could not check this; fix the cause, or run 'baton doctor'/,
    );
    assert.match(p.log(), /\[baton hook\] PreToolUse failed: /);
    // Read as "no wave", a wave file too large to read would let the turn end mid-wave.
    p.write('.claude/state/wave.json', '');
    truncateSync(join(p.dir, '.claude/state/wave.json'), 16 * 1024 * 1024 + 1);
    const blocked = json(await p.hook('Stop', { session_id: 'w' }));
    assert.equal(blocked.decision, 'block');
    assert.match(blocked.reason, /^baton: the Stop hook failed \(.*wave\.json.*\)/);
  });

  it('a config that does not parse or validate: edit and shell tools denied, other events say so once', async (t) => {
    const p = project({ profile: 'tdd' }, 'FREE');
    t.after(p.cleanup);
    p.write('baton.config.json', '{"profile": "tdd",');
    const denied = json(await p.hook('PreToolUse', write(p.dir)));
    assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(
      denied.hookSpecificOutput.permissionDecisionReason,
      /^baton: .*baton\.config\.json.*; edit and shell tools are denied until it is fixed\n\[baton rule config-invalid\]$/,
    );
    // Not a gated call: the session goes on, and the user is told (systemMessage) that the hooks are off.
    const start = await p.hook('SessionStart', {});
    assert.match(json(start).systemMessage, /baton hooks are off until it is fixed$/);
    assert.equal(json(await p.hook('sessionStart', {}, { host: 'cursor' })).user_message, json(start).systemMessage);

    p.write('baton.config.json', JSON.stringify({ profile: 'tdd', rules: 'none' }));
    const invalid = json(await p.hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    assert.match(
      invalid.hookSpecificOutput.permissionDecisionReason,
      /^baton: baton\.config\.json has 1 problem\(s\): rules: expected array, found "none"; fix the file \('baton doctor' lists them\); edit and shell tools are denied/,
    );
    // A Stop is blocked too (baton cannot tell whether a barrier is on), but never a continuation.
    assert.equal(json(await p.hook('Stop', { stop_hook_active: false })).decision, 'block');
    const continuation = json(await p.hook('Stop', { stop_hook_active: true }));
    assert.equal(continuation.decision, undefined);
    assert.match(continuation.systemMessage, /baton hooks are off until it is fixed$/);
  });

  it('denyProtocol exit2: a deny is the reason on stderr and exit 2, an allow is silent', async (t) => {
    const p = project({ profile: 'tdd', denyProtocol: 'exit2' }, 'GREEN');
    t.after(p.cleanup);
    const denied = await p.hook('PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'src', 'a.test.ts'), content: '' },
    });
    assert.equal(denied.code, 2);
    assert.equal(denied.stdout, '');
    assert.match(
      denied.stderr,
      /^✗ Blocked: attempted to edit test file during GREEN phase\.[^]*\n\[baton rule gate-green\]\n$/,
    );
    assert.deepEqual(await p.hook('PreToolUse', write(p.dir)), { stdout: '', stderr: '', code: 0 });
    // Failing closed uses the same protocol.
    const garbage = await p.hook('PreToolUse', 'x');
    assert.deepEqual([garbage.code, garbage.stdout], [2, '']);
    assert.match(garbage.stderr, /\[baton rule bad-payload\]\n$/);
  });
});

describe('the hook front, goal profile', () => {
  it('with no active goal every event is silent, and a goal runner that fails is silent too', async (t) => {
    const p = project({ profile: 'orchestrate' });
    t.after(p.cleanup);
    const env = { ...p.env, HOME: p.dir };
    const call = (event: string, goalHooks: () => Promise<never>, profile?: string) =>
      answerHook({ event, profile, payload: '{}', cwd: p.dir, env, goalHooks });
    const broken = () => Promise.reject(new Error('the goal engine could not load'));
    // The profile from the config file, and from --profile without any config.
    for (const profile of [undefined, 'orchestrate'])
      for (const event of ['Stop', 'SessionStart', 'PreToolUse'])
        assert.deepEqual(
          await call(event, broken, profile),
          { stdout: '', stderr: '', code: 0 },
          `${event} ${profile}`,
        );
    const tree = tempTree({ '.keep': '' });
    t.after(tree.cleanup);
    assert.deepEqual(
      await answerHook({ event: 'Stop', profile: 'orchestrate', payload: 'x', cwd: tree.dir, env, goalHooks: broken }),
      { stdout: '', stderr: '', code: 0 },
    );
  });
});

describe('the hook debug log', () => {
  it("without BATON_DEBUG_LOG it is hooks.log in the user's own temp folder, one line a reason with pid and event", async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    delete p.env.BATON_DEBUG_LOG;
    await p.hook('SubagentStop', 'garbage');
    const log = readFileSync(join(p.env.TMPDIR as string, `baton-${process.getuid?.()}`, 'hooks.log'), 'utf8');
    assert.match(
      log,
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z pid=${process.pid} SubagentStop stdin was not a JSON object`),
    );
  });

  it('past a megabyte it is rotated to .1; a temp folder baton cannot use loses the log, never the answer', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    const log = p.env.BATON_DEBUG_LOG as string;
    writeFileSync(log, `${'old line\n'.repeat(120_000)}`);
    await p.hook('SubagentStop', 'garbage');
    assert.match(readFileSync(`${log}.1`, 'utf8'), /^old line\n/);
    assert.match(readFileSync(log, 'utf8'), /^\S+ pid=\d+ SubagentStop stdin was not a JSON object[^\n]*\n$/);

    // baton-<uid> planted as a file: no log, and the gate still answers.
    delete p.env.BATON_DEBUG_LOG;
    writeFileSync(join(p.env.TMPDIR as string, `baton-${process.getuid?.()}`), 'not a folder');
    const denied = json(await p.hook('PreToolUse', 'garbage'));
    assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny');
  });
});

describe('shared documents', () => {
  it('a shared store that cannot be reached: the gate judges by this machine files and says so', async (t) => {
    // Port 1 on the loopback: refused at once, as a stopped server is.
    const p = project({ profile: 'tdd', store: 'postgres://baton@127.0.0.1:1/baton' }, 'GREEN');
    t.after(p.cleanup);
    const denied = json(
      await p.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(p.dir, 'src', 'a.test.ts') } }),
    );
    assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny', 'the local GREEN mirror still gates');
    assert.match(
      denied.systemMessage,
      /^baton: the shared store could not be read \(.*\); this hook judged by this machine's files, which may be stale$/,
    );
    assert.match(p.log(), /\[baton hook\] task: baton: the shared store could not be read .*\(gave up after \d+ ms/);
  });
});

describe('shell calls in a protected phase without an OS sandbox', () => {
  const bash = (command: unknown, extra: object = {}) => ({ tool_name: 'Bash', tool_input: { command }, ...extra });

  it('only a command proved harmless runs; the deny names why there is no sandbox and the fix', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    assert.equal((await p.hook('PreToolUse', bash('cat src/a.ts | grep x'))).stdout, '');
    assert.equal((await p.hook('PreToolUse', bash('  '))).stdout, '', 'no command: nothing to run');
    const denied = json(await p.hook('PreToolUse', bash('python3 build.py'))).hookSpecificOutput;
    assert.equal(denied.permissionDecision, 'deny');
    assert.match(
      denied.permissionDecisionReason,
      /^✗ Blocked: rule .* protects files in this phase and there is no OS sandbox \(BATON_SANDBOX=off\), so baton allows only shell commands it can prove write nothing; this one it cannot: /,
    );
    assert.match(
      denied.permissionDecisionReason,
      /Fix: {2}unset BATON_SANDBOX to use the OS sandbox; or use the Edit\/Write tools/,
    );
    // A write to a test file the parser sees is denied by its own rule, sandbox or not.
    const direct = json(await p.hook('PreToolUse', bash('echo x > src/a.test.ts'))).hookSpecificOutput;
    assert.match(direct.permissionDecisionReason, /\[baton rule bash-green-tests\]$/);
  });

  it('a host that cannot run a rewritten command, or a command not given as text, is judged as without a sandbox', async (t) => {
    const p = project({ profile: 'tdd' }, 'GREEN');
    t.after(p.cleanup);
    delete p.env.BATON_SANDBOX;
    const cursor = json(await p.hook('beforeShellExecution', { command: 'python3 build.py' }, { host: 'cursor' }));
    assert.equal(cursor.permission, 'deny');
    assert.match(cursor.agent_message, /no OS sandbox \(cursor cannot run a rewritten shell command\)/);
    // Codex may send its shell as argv: there is no text to hand back rewritten.
    const argv = json(await p.hook('PreToolUse', bash(['bash', '-lc', 'python3 build.py']), { host: 'codex' }));
    assert.match(
      argv.hookSpecificOutput.permissionDecisionReason,
      /no OS sandbox \(the command was not given as text\)/,
    );
  });

  it("a subagent's baton call under another writer's name is denied in every phase", async (t) => {
    const p = project({ profile: 'tdd' }, 'FREE');
    t.after(p.cleanup);
    const claim = json(
      await p.hook(
        'PreToolUse',
        bash('baton set .claude/state/current-task.json .x 1 --as orchestrator', { agent_id: 'a7' }),
      ),
    ).hookSpecificOutput;
    assert.match(
      claim.permissionDecisionReason,
      /runs baton as writer 'orchestrator', but it comes from agent a7\.[^]*\[baton rule baton-identity\]$/,
    );
    // Its own name is no claim.
    assert.equal((await p.hook('PreToolUse', bash('BATON_WRITER=a7 baton get x', { agent_id: 'a7' }))).stdout, '');
  });
});
