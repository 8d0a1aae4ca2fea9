/**
 * Whose environment a hook is judged with. `baton hook` in a session reads that session's
 * environment (src/harness/hooks/judged-env.ts lists what the judgement reads); a server started by
 * another session, or before this session's environment changed, holds its own. The shell client
 * names the environment it would judge with (a digest, and the project root it found the server
 * in), and the server answers only when that is its own: otherwise the client judges in process.
 * Each walk-around here is a session whose environment differs from the server's, asking it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import {
  answered,
  BUILD,
  greenProject,
  runWrapper,
  serveFile,
  startServe,
  TASK,
  writePayload,
} from './serve-process.js';

/** A shell command as Claude Code's Bash tool asks it. */
function shellPayload(dir: string, command: string): string {
  return JSON.stringify({
    session_id: 's1',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    cwd: dir,
  });
}

/** A PreToolUse asked through the plugin's wrapper, in the session's environment. */
const hook = (dir: string, payload: string, env: Record<string, string>) =>
  runWrapper(dir, ['hook', 'PreToolUse'], payload, env);

describe('baton serve judges only with the environment the session would judge with', () => {
  it("a session whose HOME's git config runs a program on `git status`: the server (another HOME) would allow it, so it does not answer; judged in process, denied", async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const elsewhere = join(p.dir, '..', `${p.dir.split('/').at(-1)}-home`);
    mkdirSync(elsewhere);
    t.after(() => rmSync(elsewhere, { recursive: true, force: true }));
    // The session's HOME holds a git config that runs a program on `git status`.
    const home = join(p.dir, '..', `${p.dir.split('/').at(-1)}-session-home`);
    mkdirSync(home);
    t.after(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(join(home, '.gitconfig'), '[core]\n\tfsmonitor = touch /tmp/baton-never-run\n');
    const common = { BATON_SANDBOX: 'off' };
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0'], { ...common, HOME: elsewhere });
    t.after(server.stop);
    const payload = shellPayload(p.dir, 'git status');
    // With the server's own HOME, `git status` is harmless, and the server answers (allow: nothing said).
    const before = await answered(p.dir);
    const same = await hook(p.dir, payload, { ...common, HOME: elsewhere });
    assert.equal(same.stdout, '');
    assert.equal(await answered(p.dir), before + 1, 'the same environment is answered by the server');
    // In the session's HOME, `git status` runs a program: not provably harmless in GREEN, denied.
    const inProcess = await hook(p.dir, payload, { ...common, HOME: home, BATON_SERVE_SKIP: '1' });
    assert.match(inProcess.stdout, /"permissionDecision":"deny".*core\.fsmonitor/);
    const asked = await hook(p.dir, payload, { ...common, HOME: home });
    assert.deepEqual(asked, inProcess, 'judged as in process');
    assert.equal(await answered(p.dir), before + 1, 'the server did not judge it');
  });

  it('a session with another BATON_* option (a lock budget): not answered by the server, judged in process; the same session with the root named otherwise is', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(server.stop);
    const payload = writePayload(p.dir, 'tests/test_gate.py');
    const before = await answered(p.dir);
    const other = await hook(p.dir, payload, { BATON_LOCK_TIMEOUT_MS: '100' });
    assert.match(other.stdout, /"permissionDecision":"deny".*gate-green/);
    assert.equal(await answered(p.dir), before, 'another option: judged in process');
    // The server was started with neither BATON_ROOT nor CLAUDE_PROJECT_DIR; a session naming the
    // root with either, both or neither (standing in it) judges the same, so the server answers.
    const namings: Record<string, string>[] = [
      {},
      { BATON_ROOT: p.dir },
      { BATON_ROOT: `${p.dir}/` },
      { CLAUDE_PROJECT_DIR: '' },
    ];
    for (const env of namings) {
      const seen = await answered(p.dir);
      assert.match((await hook(p.dir, payload, env)).stdout, /"permissionDecision":"deny".*gate-green/);
      assert.equal(await answered(p.dir), seen + 1, JSON.stringify(env));
    }
  });

  // Every project's server holds the same key (one per user), so before the root was signed a
  // planted server could relay a hook to another project's server, whose rules may allow it.
  it("a fake server that relays the hook to another project's real server (in FREE there): the gated write is still denied, judged in process", async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const other = greenProject();
    t.after(other.cleanup);
    assert.equal(baton(['set', TASK, 'tdd_phase', 'FREE'], { cwd: other.dir }).code, 0);
    const server = await startServe(other.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(server.stop);
    const real = serveFile(other.dir);
    const relayed: string[] = [];
    const relay = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const forward = request(
          `${real.url}${req.url ?? ''}`,
          { method: 'POST', headers: { Authorization: `Bearer ${real.token}` } },
          (answer) => {
            let text = '';
            answer.on('data', (chunk) => (text += chunk));
            answer.on('end', () => {
              relayed.push(`${answer.statusCode} ${text}`);
              res.writeHead(answer.statusCode ?? 500, { 'Content-Length': Buffer.byteLength(text) });
              res.end(text);
            });
          },
        );
        // The same target and payload, asked of the other project's server (judged for its root).
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    t.after(() => relay.close());
    mkdirSync(join(p.dir, '.baton'), { recursive: true });
    writeFileSync(
      join(p.dir, '.baton', 'serve.json'),
      `${JSON.stringify({ url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`, pid: process.pid, token: 'planted', version: 'x', build: BUILD })}\n`,
      { mode: 0o600 },
    );
    const out = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), {});
    assert.equal(relayed.length, 1, 'the client asked the relay');
    assert.match(relayed[0]!, /^409 /, "the other project's server would not judge it");
    assert.match(out.stdout, /"permissionDecision":"deny".*gate-green/);
  });
});

/** A PATH holding only the named programs (links to this machine's), as a host may run hooks with. */
function onlyPrograms(dir: string, names: string[]): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const name of names) {
    const found =
      name === 'node'
        ? process.execPath
        : spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    assert.ok(found, name);
    symlinkSync(found, join(bin, name));
  }
  return bin;
}

describe('where the shell client cannot run, the hook is judged in process', () => {
  // Passed before this round too: the wrapper asks `command -v bash` first. A wrapper that ran the
  // client anyway would exit 127 with nothing printed: an allow.
  it('no bash on the PATH hooks run with: the gated write is denied in process, the server not asked', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(server.stop);
    const tools = tempTree();
    t.after(tools.cleanup);
    const before = await answered(p.dir);
    const denied = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), {
      PATH: onlyPrograms(tools.dir, ['node']),
    });
    assert.match(denied.stdout, /"permissionDecision":"deny".*gate-green/);
    assert.equal(denied.code, 0);
    assert.equal(await answered(p.dir), before, 'judged in process');
  });

  it('bash but no sha256sum (the digest and the tag cannot be computed): denied in process, the server not asked', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const tools = tempTree();
    t.after(tools.cleanup);
    // The server has the same PATH, so only the missing program stands between the client and it.
    const PATH = onlyPrograms(tools.dir, ['node', 'bash', 'git']);
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0'], { PATH });
    t.after(server.stop);
    const before = await answered(p.dir);
    const denied = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), { PATH });
    assert.match(denied.stdout, /"permissionDecision":"deny".*gate-green/);
    assert.equal(await answered(p.dir), before, 'judged in process');
  });
});
