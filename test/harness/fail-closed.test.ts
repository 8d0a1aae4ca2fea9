import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { decision, eneoProject, startTask, type EneoProject } from './helpers.js';

// When baton itself fails, a gated event (PreToolUse of an edit or shell tool where rules are
// active; Stop with a barrier) is denied or blocked with one line naming the fix; the other events
// stay silent or keep their notice. Each case is a real process on a real project in GREEN.
const writeTest = (p: EneoProject) => ({
  session_id: 's',
  tool_name: 'Write',
  tool_input: { file_path: join(p.dir, 'tests', 'test_x.py'), content: '' },
});
const stopPayload = (active = false) => ({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: active });

function block(stdout: string): string | undefined {
  if (stdout.trim() === '') return undefined;
  const out = JSON.parse(stdout) as { decision?: string; reason?: string };
  return out.decision === 'block' ? out.reason : undefined;
}

function green(files: Record<string, string> = {}): EneoProject {
  const p = eneoProject(files);
  startTask(p);
  assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
  return p;
}

describe('an invalid baton.config.json fails closed for gated events', () => {
  for (const [label, text, problem] of [
    ['does not parse', '{"profile": "eneo",', /baton\.config\.json is not valid JSON .*fix the file/],
    [
      'does not validate',
      JSON.stringify({ profile: 'eneo', rules: [{ id: 'x', on: 'write', command: '(' }] }),
      /baton\.config\.json has 2 problem\(s\): rules\[0\]\.on: expected one of/,
    ],
  ] as const) {
    it(`a config that ${label}: PreToolUse denied and Stop blocked, naming the file and the fix; other events keep the notice`, (t) => {
      const p = green();
      t.after(p.cleanup);
      p.write('baton.config.json', text);
      const pre = decision(p.hook('PreToolUse', writeTest(p)));
      assert.equal(pre.kind, 'deny');
      assert.match(pre.reason, problem);
      assert.match(pre.reason, /edit and shell tools are denied until it is fixed/);
      assert.equal(pre.reason.split('\n')[0], pre.reason.split('\n[baton rule')[0], 'one line');
      const bash = decision(p.hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
      assert.equal(bash.kind, 'deny', 'baton cannot tell which commands are safe without its rules');
      const stop = p.hook('Stop', stopPayload());
      assert.match(block(stop.stdout) ?? '', problem);
      // A continuation never blocks again: a session is never stuck.
      assert.equal(block(p.hook('Stop', stopPayload(true)).stdout), undefined);
      const start = p.hook('SessionStart', { session_id: 's', source: 'startup' });
      assert.equal(start.code, 0);
      assert.match((JSON.parse(start.stdout) as { systemMessage: string }).systemMessage, /baton hooks are off/);
      assert.match(p.read('.debug.log'), /fail closed \(config-invalid\)/);
    });
  }
});

describe('a payload baton cannot read fails closed for gated events', () => {
  it('garbage stdin: PreToolUse denied, Stop blocked, SubagentStop silent', (t) => {
    const p = green();
    t.after(p.cleanup);
    for (const input of ['garbage', '[1,2]', '', '{"tool_name":', 'null']) {
      const r = p.hook('PreToolUse', input);
      assert.equal(r.code, 0);
      const answer = decision(r);
      assert.equal(answer.kind, 'deny', JSON.stringify(input));
      assert.match(answer.reason, /stdin was not a JSON object of at most 32 MiB.*fix the hook's caller/);
      assert.match(block(p.hook('Stop', input).stdout) ?? '', /stdin was not a JSON object/);
      assert.deepEqual(
        [p.hook('SubagentStop', input)].map((s) => [s.code, s.stdout]),
        [[0, '']],
      );
    }
  });

  it('a payload over 32 MiB is denied, not read as an empty call', (t) => {
    const p = green();
    t.after(p.cleanup);
    const big = JSON.stringify({ ...writeTest(p), padding: 'x'.repeat(33 * 1024 * 1024) });
    const file = join(p.dir, 'big.json');
    writeFileSync(file, big);
    for (const stdin of ['pipe', 'file'] as const) {
      const fd = stdin === 'file' ? openSync(file, 'r') : undefined;
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'baton.js'), 'hook', 'PreToolUse'], {
        cwd: p.dir,
        env: cleanEnv(p.env),
        encoding: 'utf8',
        ...(fd === undefined ? { input: big } : { stdio: [fd, 'pipe', 'pipe'] }),
      });
      if (fd !== undefined) closeSync(fd);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(decision({ code: 0, stdout: r.stdout, stderr: r.stderr }).kind, 'deny', stdin);
    }
  });
});

describe('a handler that throws fails closed for gated events', () => {
  it('the shell analysis bundle broken in the install: a Bash call in GREEN is denied with the error; SessionStart still runs', (t) => {
    const p = green();
    t.after(p.cleanup);
    // The built CLI, copied whole, with one lazily loaded part cut short (a copy that broke halfway).
    const id = /builds\/([^/]+)\//.exec(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8'))?.[1] as string;
    // dist/cli.js is the CLI's entry, naming its build's main (builds/<id>/main.js), which names its bundles.
    const cli = join(p.dir, '.cli');
    cpSync(join(ROOT, 'dist', 'builds', id), join(cli, 'builds', id), { recursive: true });
    cpSync(join(ROOT, 'dist', 'cli.js'), join(cli, 'cli.js'));
    writeFileSync(join(cli, 'package.json'), '{ "type": "commonjs" }\n');
    const gate = join(cli, 'builds', id, 'lazy', 'shell-gate.js');
    assert.ok(existsSync(gate));
    writeFileSync(gate, readFileSync(gate, 'utf8').slice(0, 5000));
    const hook = (event: string, payload: unknown) =>
      spawnSync(process.execPath, [join(cli, 'cli.js'), 'hook', event], {
        cwd: p.dir,
        env: cleanEnv(p.env),
        input: JSON.stringify(payload),
        encoding: 'utf8',
      });
    const r = hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo x > tests/test_x.py' } });
    assert.equal(r.status, 0, r.stderr);
    const answer = decision({ code: 0, stdout: r.stdout, stderr: r.stderr });
    assert.equal(answer.kind, 'deny');
    assert.match(
      answer.reason,
      /^baton: the PreToolUse hook failed \(internal error: SyntaxError: .*\), so baton could not check this; fix the cause/,
    );
    assert.match(p.read('.debug.log'), /fail closed \(hook-failed\)/);
    // An edit tool does not load that part: its gate still decides by the rules.
    const edit = hook('PreToolUse', writeTest(p));
    assert.match(decision({ code: 0, stdout: edit.stdout, stderr: edit.stderr }).reason, /gate-green/);
    assert.equal(hook('SessionStart', { session_id: 's', source: 'startup' }).status, 0);
  });
});

describe('an unknown event name is a configuration error', () => {
  it('baton hook pretooluse / pre-tool-use: said on stderr and logged; a tool call is denied; ignored events stay silent', (t) => {
    const p = green();
    t.after(p.cleanup);
    const typo = p.hook('pretooluse', writeTest(p));
    assert.equal(typo.code, 0);
    const answer = decision(typo);
    assert.equal(answer.kind, 'deny');
    assert.match(
      answer.reason,
      /unknown event 'pretooluse'; baton handles SessionStart, .*PreToolUse.*: fix the command/,
    );
    assert.match(typo.stderr, /unknown event 'pretooluse'/);
    const other = p.hook('pre-tool-use', { session_id: 's' });
    assert.equal(other.code, 1);
    assert.equal(other.stdout, '');
    assert.match(
      other.stderr,
      /^baton hook: unknown event 'pre-tool-use'; baton handles .*: fix the command in the host's hook settings\n$/,
    );
    assert.match(p.read('.debug.log'), /unknown event 'pre-tool-use'/);
    for (const ignored of ['PostToolUse', 'Notification', 'SubagentStart']) {
      const r = p.hook(ignored, writeTest(p));
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', ''], ignored);
    }
  });
});

describe('a working folder removed under baton', () => {
  // An agent that removed the worktree it worked in: Node's process.cwd() throws (uv_cwd). Before,
  // every command crashed with a stack and exit 1, a PreToolUse hook with it, which Claude Code
  // does not count as a denial: the Write below went ahead unjudged.
  const inRemoved = (p: EneoProject, args: string[], input = '') => {
    const gone = join(p.dir, 'worktree');
    mkdirSync(gone);
    // The shell enters the folder and removes it; Node then starts in a folder that is gone.
    const run = spawnSync(
      'sh',
      ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, process.execPath, BIN, ...args],
      {
        encoding: 'utf8',
        env: cleanEnv({ ...p.env, CLAUDE_PROJECT_DIR: p.dir }),
        input,
      },
    );
    return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
  };

  it('a PreToolUse hook decides from the project folder the host names: a test file in GREEN is denied', (t) => {
    const p = green();
    t.after(p.cleanup);
    const pre = inRemoved(p, ['hook', 'PreToolUse'], JSON.stringify(writeTest(p)));
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(decision(pre).kind, 'deny', pre.stdout);
  });

  it('a command says so in one line, exit 8', (t) => {
    const p = green({ 'd.json': '{"a":1}' });
    t.after(p.cleanup);
    const got = inRemoved(p, ['get', join(p.dir, 'd.json'), '.a']);
    assert.equal(got.code, 8, got.stderr);
    assert.equal(
      got.stderr,
      'baton get: the working folder was removed (ENOENT: no such file or directory, uv_cwd); cd to a folder that exists\n',
    );
  });
});
