/**
 * `baton serve` as a real process: the contract (first line, serve.json, POST /hooks/EVENT answers
 * what `baton hook EVENT` prints), who may ask, one server per project, idle end, replacement of
 * another version, and the plugin's shell client, which judges in process whenever the server
 * cannot answer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton, cleanEnv, ROOT } from '../helpers/cli.js';
import {
  BUILD,
  greenProject,
  serveFile,
  servedGreenProject,
  startServe,
  TASK,
  WRAPPER,
  writePayload,
} from './serve-process.js';

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const auth = (dir: string) => ({ Authorization: `Bearer ${serveFile(dir).token}` });

/** The plugin's hook wrapper as Claude Code runs it (CLAUDE_PROJECT_DIR set), stdin the payload. */
function wrapper(dir: string, event: string, payload: string, env: Record<string, string> = {}, args: string[] = []) {
  const result = spawnSync('sh', [WRAPPER, 'hook', event, ...args], {
    cwd: dir,
    env: cleanEnv({ CLAUDE_PROJECT_DIR: dir, ...env }),
    input: payload,
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function answered(dir: string): Promise<number> {
  const info = serveFile(dir);
  return JSON.parse((await post(`${info.url}/health`, '', auth(dir), 'GET')).body).answered;
}

describe('baton serve', () => {
  it('prints its URL first, writes serve.json 0600, and answers a hook exactly as baton hook prints it', async (t) => {
    const { p, server } = await servedGreenProject(t);
    assert.match(server.url, /^baton serve: http:\/\/127\.0\.0\.1:\d+$/);
    const info = serveFile(p.dir);
    assert.equal(`baton serve: ${info.url}`, server.url);
    assert.equal(info.pid, server.child.pid);
    assert.equal(`baton ${info.version}\n`, baton(['--version'], { cwd: p.dir }).stdout);
    assert.match(info.token, /^[\w-]{32,}$/);
    assert.equal(statSync(join(p.dir, '.baton', 'serve.json')).mode & 0o777, 0o600);
    assert.equal(
      readFileSync(join(p.dir, '.baton', '.gitignore'), 'utf8')
        .trim()
        .split('\n')
        .at(-1),
      '*',
    );

    for (const file of ['tests/test_gate.py', 'src/app.py']) {
      const payload = writePayload(p.dir, file);
      const served = await post(`${info.url}/hooks/PreToolUse`, payload, auth(p.dir));
      const command = baton(['hook', 'PreToolUse'], { cwd: p.dir, input: payload });
      assert.equal(served.status, 200);
      assert.equal(served.body, command.stdout, file);
    }
    const denied = await post(`${info.url}/hooks/PreToolUse`, writePayload(p.dir, 'tests/test_gate.py'), auth(p.dir));
    assert.match(JSON.parse(denied.body).hookSpecificOutput.permissionDecision, /^deny$/);
    assert.match(denied.body, /gate-green/);
    // An event the profile leaves alone, and one the host does not have: what baton hook says.
    assert.deepEqual(await post(`${info.url}/hooks/Notification`, '{}', auth(p.dir)), { status: 200, body: '' });
    const unknown = await post(`${info.url}/hooks/pretooluse`, writePayload(p.dir, 'src/a.py'), auth(p.dir));
    assert.match(JSON.parse(unknown.body).hookSpecificOutput.permissionDecisionReason, /unknown event 'pretooluse'/);
    // A body past the hook stdin bound reads as garbage, which a gated event denies.
    const huge = await post(`${info.url}/hooks/PreToolUse`, `{"x":"${'a'.repeat(33 * 1024 * 1024)}"}`, auth(p.dir));
    assert.match(huge.body, /"permissionDecision":"deny"/);
    assert.match(huge.body, /not a JSON object of at most 32 MiB/);
  });

  it('refuses a request without the token, with a wrong one, for another Host or from a web page, judging nothing', async (t) => {
    const { p } = await servedGreenProject(t);
    const { url, token } = serveFile(p.dir);
    const port = new URL(url).port;
    const payload = writePayload(p.dir, 'tests/test_gate.py');
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong-token-of-the-same-length-xxxx' },
      // The token's own length, one character off: the bytes are compared, not only their count.
      { Authorization: `Bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` },
      { Authorization: `Bearer ${token}x` },
      { Authorization: token },
      { Authorization: `Bearer ${token}`, Host: `attacker.example:${port}` },
      { Authorization: `Bearer ${token}`, Host: `127.0.0.1:1` },
      { Authorization: `Bearer ${token}`, Origin: 'http://attacker.example' },
    ];
    for (const headers of attempts) {
      const refused = await post(`${url}/hooks/PreToolUse`, payload, headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.doesNotMatch(refused.body, /permissionDecision/);
    }
    assert.equal(await answered(p.dir), 0);
    assert.equal(
      (await post(`${url}/hooks/PreToolUse`, payload, { Host: `localhost:${port}`, ...auth(p.dir) })).status,
      200,
    );
  });

  it('one per project: a second start prints the running server and exits 0; it ends when idle, and a killed one is replaced', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const first = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(first.stop);
    const second = baton(['serve', '--port', '0'], { cwd: p.dir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.split('\n')[0], first.url);
    assert.match(second.stderr, new RegExp(`already running for this project \\(pid ${first.child.pid}\\)`));

    // Killed: its lock and serve.json stay behind; the next start takes over.
    first.child.kill('SIGKILL');
    await first.exited;
    const third = await startServe(p.dir, ['--port', '0', '--idle-timeout', '1']);
    t.after(third.stop);
    assert.notEqual(third.url, first.url);
    assert.equal(serveFile(p.dir).pid, third.child.pid);
    // Idle for a second: it ends by itself, and says so by leaving nothing behind.
    assert.equal(await third.exited, 0);
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')));
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.lock')));
  });

  it("stopped by SIGTERM or a user's Ctrl-C (SIGINT), it exits 0 and leaves neither serve.json nor its lock", async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    // Signalled as soon as the first line is read, twice each: before, the signal could come before the
    // handlers, and the server died with serve.json and its lock behind.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGTERM', 'SIGINT'] as const) {
      const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
      t.after(server.stop);
      server.child.kill(signal);
      assert.equal(await server.exited, 0, signal);
      assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')), signal);
      assert.ok(!existsSync(join(p.dir, '.baton', 'serve.lock')), signal);
    }
  });

  // Before, the start read serve.json whole and blocked on a FIFO for ever: the two-minute test
  // timeout is that failure, not a timing.
  it(
    'a FIFO planted as serve.json is never waited on: the start replaces it with its own',
    { timeout: 120_000 },
    async (t) => {
      const p = greenProject();
      t.after(p.cleanup);
      mkdirSync(join(p.dir, '.baton'), { recursive: true });
      assert.equal(spawnSync('mkfifo', [join(p.dir, '.baton', 'serve.json')]).status, 0);
      const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '1']);
      t.after(server.stop);
      assert.ok(statSync(join(p.dir, '.baton', 'serve.json')).isFile());
      assert.equal(serveFile(p.dir).pid, server.child.pid);
      assert.equal(await server.exited, 0);
    },
  );

  it('a server of another version, or of another build of this version, is asked to stop and replaced', async (t) => {
    const version = baton(['--version'], { cwd: ROOT })
      .stdout.trim()
      .replace(/^baton /, '');
    // An older baton's server, one of a build from other sources (a rebuild, a plugin updated from
    // git) and one of before builds were told apart, as serve.json and /health show them.
    for (const identity of [{ version: '0.0.1-old' }, { version, build: '0123456789abcdef' }, { version }]) {
      const p = greenProject();
      t.after(p.cleanup);
      let shutdowns = 0;
      const old = createServer((req, res) => {
        if (req.url === '/shutdown') shutdowns++;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ...identity, pid: process.pid }));
      });
      await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
      t.after(() => old.close());
      const oldUrl = `http://127.0.0.1:${(old.address() as AddressInfo).port}`;
      mkdirSync(join(p.dir, '.baton'), { recursive: true });
      writeFileSync(
        join(p.dir, '.baton', 'serve.json'),
        JSON.stringify({ url: oldUrl, pid: process.pid, token: 'old-token', ...identity }),
        { mode: 0o600 },
      );
      const server = await startServe(p.dir);
      t.after(server.stop);
      assert.equal(shutdowns, 1, JSON.stringify(identity));
      assert.deepEqual([serveFile(p.dir).version, serveFile(p.dir).build], [version, BUILD]);
      assert.equal(serveFile(p.dir).pid, server.child.pid);
    }
  });

  it("the plugin's shell client: the server answers as the CLI would; killed, slow or garbled, the hook is judged in process", async (t) => {
    const { p, server } = await servedGreenProject(t);
    const test = writePayload(p.dir, 'tests/test_gate.py');
    const source = writePayload(p.dir, 'src/app.py');
    for (const payload of [test, source]) {
      const before = await answered(p.dir);
      const served = wrapper(p.dir, 'PreToolUse', payload);
      assert.equal(await answered(p.dir), before + 1, 'the server answered');
      assert.deepEqual(served, wrapper(p.dir, 'PreToolUse', payload, { BATON_SERVE_SKIP: '1' }));
    }
    assert.match(wrapper(p.dir, 'PreToolUse', test).stdout, /"permissionDecision":"deny".*gate-green/);
    // Another host's hook (baton install gemini writes --host gemini): the server answers in its protocol.
    const gemini = JSON.stringify({
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: { file_path: join(p.dir, 'tests/test_gate.py') },
      cwd: p.dir,
    });
    const asked = await answered(p.dir);
    const geminiServed = wrapper(p.dir, 'BeforeTool', gemini, {}, ['--host', 'gemini']);
    assert.equal(await answered(p.dir), asked + 1, 'the server answered the Gemini hook');
    assert.equal(JSON.parse(geminiServed.stdout).decision, 'deny');
    assert.deepEqual(
      geminiServed,
      wrapper(p.dir, 'BeforeTool', gemini, { BATON_SERVE_SKIP: '1' }, ['--host', 'gemini']),
    );
    // The status line too: drawn by the server, as baton statusline draws it.
    const status = JSON.stringify({
      model: { display_name: 'Opus' },
      workspace: { current_dir: p.dir, project_dir: p.dir },
    });
    const statusline = (env: Record<string, string> = {}) =>
      spawnSync('sh', [WRAPPER, 'statusline'], {
        cwd: p.dir,
        env: cleanEnv({ CLAUDE_PROJECT_DIR: p.dir, ...env }),
        input: status,
        encoding: 'utf8',
      }).stdout;
    const before = await answered(p.dir);
    const drawn = statusline();
    assert.equal(await answered(p.dir), before + 1, 'the server drew it');
    assert.match(drawn, /demo/);
    assert.equal(drawn, statusline({ BATON_SERVE_SKIP: '1' }));

    server.child.kill('SIGKILL');
    await server.exited;
    assert.ok(existsSync(join(p.dir, '.baton', 'serve.json')), 'a killed server leaves serve.json behind');
    assert.match(wrapper(p.dir, 'PreToolUse', test).stdout, /"permissionDecision":"deny".*gate-green/);
    assert.equal(statusline(), drawn, 'the status line is drawn in process');

    // Something else answers at the address serve.json names (a live pid: this test's).
    for (const reply of ['{"hookSpecificOutput":{}}', 'garbage', '']) {
      const squatter = createServer((_req, res) => {
        res.writeHead(reply === '' ? 500 : 200);
        res.end(reply);
      });
      await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(squatter.address() as AddressInfo).port}`;
      writeFileSync(
        join(p.dir, '.baton', 'serve.json'),
        JSON.stringify({ url, pid: process.pid, token: 't', version: 'x', build: BUILD }),
      );
      // spawnSync would block this process, and with it the squatter: the wrapper runs async.
      const out = await new Promise<string>((resolve) => {
        const child = spawn('sh', [WRAPPER, 'hook', 'PreToolUse'], {
          cwd: p.dir,
          env: cleanEnv({ CLAUDE_PROJECT_DIR: p.dir }),
        });
        let text = '';
        child.stdout.on('data', (chunk) => (text += chunk));
        child.on('close', () => resolve(text));
        child.stdin.end(test);
      });
      squatter.close();
      assert.match(out, /"permissionDecision":"deny".*gate-green/, reply);
    }
  });

  it('an agent cannot point the client at a server of its own: a Write or a shell write to .baton/serve.json is denied', (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const target = join(p.dir, '.baton', 'serve.json');
    for (const payload of [
      { tool_name: 'Write', tool_input: { file_path: target, content: '{}' } },
      { tool_name: 'Bash', tool_input: { command: `echo '{}' > .baton/serve.json` } },
    ]) {
      const result = baton(['hook', 'PreToolUse'], {
        cwd: p.dir,
        input: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', cwd: p.dir, ...payload }),
      });
      assert.match(result.stdout, /"permissionDecision":"deny"/, payload.tool_name);
    }
    // In FREE too: baton's state is never an agent's to write.
    assert.equal(baton(['set', TASK, 'tdd_phase', 'FREE'], { cwd: p.dir }).code, 0);
    const free = baton(['hook', 'PreToolUse'], {
      cwd: p.dir,
      input: writePayload(p.dir, '.baton/serve.json'),
    });
    assert.match(free.stdout, /"permissionDecision":"deny".*baton-state/);
  });

  it('--detach returns once the server answers, which runs on its own until idle', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const started = baton(['serve', '--detach', '--idle-timeout', '1'], { cwd: p.dir });
    assert.equal(started.code, 0, started.stderr);
    const info = serveFile(p.dir);
    t.after(() => {
      try {
        process.kill(info.pid, 'SIGTERM');
      } catch {
        // ended by itself
      }
    });
    // Its young generation is capped: V8 takes the flag only at the start baton makes.
    assert.ok(
      readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=2'),
      'the detached server runs with a capped young generation',
    );
    assert.equal(started.stdout, `baton serve: ${info.url}\nbaton serve: dashboard ${info.ui}\n`);
    assert.equal(started.stderr, '', 'a fresh start is not reported as already running');
    assert.equal(JSON.parse((await post(`${info.url}/health`, '', auth(p.dir), 'GET')).body).pid, info.pid);
    // Idle for a second, it ends: its lock released last, serve.json removed before it.
    while (existsSync(join(p.dir, '.baton', 'serve.lock'))) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')));
  });
});
