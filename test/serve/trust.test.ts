/**
 * The shell client believes a hook answer only when its tag proves the server holds the key outside
 * the project (serve/answer-key.ts). serve.json is in the project, so a process that can write there
 * can name a server of its own: these are its walk-arounds, each against the real client
 * (plugin/bin/baton -> plugin/lib/serve-client.bash) and the real server, and each must end with the
 * gated write denied, judged in process (the hook's debug log, which only an in-process judgment
 * writes here, says so).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton, cleanEnv } from '../helpers/cli.js';
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

const RS = '\x1e';

/** The wrapper as Claude Code runs it, asynchronously: a fake server in this process must answer it. */
function hook(dir: string, payload: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('sh', [WRAPPER, 'hook', 'PreToolUse'], {
      cwd: dir,
      env: cleanEnv({ CLAUDE_PROJECT_DIR: dir, ...env }),
    });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('close', () => resolve(text));
    child.stdin.end(payload);
  });
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

function post(url: string, token: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A server of the attacker's at the address serve.json now names (with a live pid: this test's). */
async function fake(dir: string, answer: (target: string, body: string) => Promise<string>) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    void readAll(req).then(async (body) => {
      asked.push(req.url ?? '');
      const text = await answer(req.url ?? '', body);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    join(dir, '.baton', 'serve.json'),
    `${JSON.stringify({ url, pid: process.pid, token: 'planted', version: 'x', build: BUILD })}\n`,
    { mode: 0o600 },
  );
  return { asked, close: () => server.close() };
}

const ALLOW = `${RS}${RS}0${RS}`;

describe('baton serve: the client believes only answers signed with the key outside the project', () => {
  it('the real server: a signed answer is used as is, nothing judged in process; the key is 0600 in a 0700 folder outside the project', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const state = join(p.dir, '..', `${p.dir.split('/').at(-1)}-state`);
    t.after(() => rmSync(state, { recursive: true, force: true }));
    const log = join(p.dir, 'client.log');
    const env = { XDG_STATE_HOME: state, BATON_DEBUG_LOG: log };
    // The session's environment is the server's (judged-env.test.ts: else the client judges in process).
    const server = await startServe(p.dir, ['--port', '0'], env);
    t.after(server.stop);
    const key = join(state, 'baton', 'serve.key');
    assert.equal(statSync(key).mode & 0o777, 0o600);
    assert.equal(statSync(join(state, 'baton')).mode & 0o777, 0o700);
    assert.ok(!readFileSync(join(p.dir, '.baton', 'serve.json'), 'utf8').includes(readFileSync(key, 'utf8').trim()));
    assert.match(
      await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), env),
      /"permissionDecision":"deny".*gate-green/,
    );
    assert.equal(await hook(p.dir, writePayload(p.dir, 'src/app.py'), env), '');
    const judges = readFileSync(log, 'utf8').match(/pid=\d+/g) ?? [];
    assert.deepEqual(
      new Set(judges),
      new Set([`pid=${server.child.pid}`]),
      'the server judged both; the client ran no baton',
    );
  });

  for (const [name, attack] of [
    ['answers allow with a made-up tag', async () => () => Promise.resolve(`${ALLOW}${'0'.repeat(64)}`)],
    ['answers allow with no tag at all (the old client format)', async () => () => Promise.resolve(ALLOW)],
  ] as const) {
    it(`a fake server named in serve.json that ${name}: the gated write is still denied, judged in process`, async (t) => {
      const { p } = await servedGreenProject(t);
      const planted = await fake(p.dir, await attack());
      t.after(planted.close);
      const log = join(p.dir, 'client.log');
      const out = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), { BATON_DEBUG_LOG: log });
      assert.equal(planted.asked.length, 1, 'the client asked the planted server');
      assert.match(out, /"permissionDecision":"deny".*gate-green/);
      assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
    });
  }

  it("a fake server that relays the client's nonce with a harmless payload to the real server, and passes its signed allow off", async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const log = join(p.dir, 'client.log');
    // The session's environment is the server's, so the real server answers the relayed request.
    const server = await startServe(p.dir, ['--port', '0'], { BATON_DEBUG_LOG: log });
    t.after(server.stop);
    const real = serveFile(p.dir);
    const harmless = writePayload(p.dir, 'src/app.py');
    const relayed: string[] = [];
    const planted = await fake(p.dir, async (target) => {
      const answer = await post(`${real.url}${target}`, real.token, harmless);
      relayed.push(answer);
      return answer;
    });
    t.after(planted.close);
    const out = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), { BATON_DEBUG_LOG: log });
    assert.match(relayed[0] ?? '', new RegExp(`^${ALLOW}[0-9a-f]{64}$`), 'the real server signed an allow');
    assert.match(out, /"permissionDecision":"deny".*gate-green/);
    assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
  });

  it('a fake server that replays an allow the real server signed for this very payload earlier (FREE phase)', async (t) => {
    const { p } = await servedGreenProject(t);
    const real = serveFile(p.dir);
    const gated = writePayload(p.dir, 'tests/test_gate.py');
    assert.equal(baton(['set', TASK, 'tdd_phase', 'FREE'], { cwd: p.dir }).code, 0);
    const nonce = 'ab'.repeat(16);
    const recorded = await post(`${real.url}/hooks/PreToolUse?client=sh&nonce=${nonce}`, real.token, gated);
    assert.match(recorded, new RegExp(`^${ALLOW}[0-9a-f]{64}$`), 'allowed in FREE, signed');
    assert.equal(baton(['set', TASK, 'tdd_phase', 'GREEN'], { cwd: p.dir }).code, 0);
    const planted = await fake(p.dir, () => Promise.resolve(recorded));
    t.after(planted.close);
    const log = join(p.dir, 'client.log');
    const out = await hook(p.dir, gated, { BATON_DEBUG_LOG: log });
    assert.match(out, /"permissionDecision":"deny".*gate-green/);
    assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
  });

  it('without the key (removed, or never readable here), the client asks no server and judges in process', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const state = join(p.dir, '..', `${p.dir.split('/').at(-1)}-state`);
    t.after(() => rmSync(state, { recursive: true, force: true }));
    const server = await startServe(p.dir, ['--port', '0'], { XDG_STATE_HOME: state });
    t.after(server.stop);
    rmSync(join(state, 'baton', 'serve.key'));
    const log = join(p.dir, 'client.log');
    const out = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), {
      XDG_STATE_HOME: state,
      BATON_DEBUG_LOG: log,
    });
    assert.match(out, /"permissionDecision":"deny".*gate-green/);
    assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
  });

  // Before the client bounded its connect, the hook hung for the kernel's SYN retries (~2 min), past
  // Claude Code's hook timeout, which lets the call through: the guard is that failure, not a timing.
  it(
    'a live server that does not accept (stopped, its backlog full): the client gives up on the connect, the gated write is still denied, judged in process',
    { timeout: 100_000 },
    async (t) => {
      const p = greenProject();
      t.after(p.cleanup);
      const state = join(p.dir, '..', `${p.dir.split('/').at(-1)}-state`);
      t.after(() => rmSync(state, { recursive: true, force: true }));
      mkdirSync(join(state, 'baton'), { recursive: true, mode: 0o700 });
      writeFileSync(join(state, 'baton', 'serve.key'), `${'k'.repeat(43)}\n`, { mode: 0o600 });
      const listener = spawn(
        process.execPath,
        [
          '-e',
          "const s = require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port))",
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      // Killed, its port refuses: a hook still hanging in connect then ends.
      t.after(() => listener.kill('SIGKILL'));
      const port = await new Promise<number>((resolve) =>
        listener.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
      );
      listener.kill('SIGSTOP');
      // Backlog 1 queues two connections it never accepts; a third SYN is dropped.
      const fillers = await Promise.all(
        [0, 1].map(
          () =>
            new Promise<Socket>((resolve) => {
              const socket = connect(port, '127.0.0.1', () => resolve(socket));
            }),
        ),
      );
      t.after(() => fillers.forEach((socket) => socket.destroy()));
      mkdirSync(join(p.dir, '.baton'), { recursive: true });
      writeFileSync(
        join(p.dir, '.baton', 'serve.json'),
        `${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: listener.pid, token: 't', version: 'x', build: BUILD })}\n`,
        { mode: 0o600 },
      );
      const log = join(p.dir, 'client.log');
      const out = await hook(p.dir, writePayload(p.dir, 'tests/test_gate.py'), {
        XDG_STATE_HOME: state,
        BATON_DEBUG_LOG: log,
      });
      assert.match(out, /"permissionDecision":"deny".*gate-green/);
      assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
    },
  );

  it('a key file others can read, or a link planted at its name, is refused at start, naming the fix, and left as it is', (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const state = join(p.dir, '..', `${p.dir.split('/').at(-1)}-state`);
    t.after(() => rmSync(state, { recursive: true, force: true }));
    const key = join(state, 'baton', 'serve.key');
    spawnSync('mkdir', ['-p', join(state, 'baton')]);
    writeFileSync(key, `${'k'.repeat(43)}\n`, { mode: 0o644 });
    const result = baton(['serve', '--port', '0'], { cwd: p.dir, env: { XDG_STATE_HOME: state } });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /serve\.key must be a regular file of yours, mode 0600.*remove it/);
    assert.equal(readFileSync(key, 'utf8'), `${'k'.repeat(43)}\n`);
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')));
    // A link to a key the attacker chose (or dangling, for baton to create its key there).
    rmSync(key);
    const chosen = join(state, 'chosen.key');
    for (const exists of [false, true]) {
      if (exists) writeFileSync(chosen, `${'a'.repeat(43)}\n`, { mode: 0o600 });
      symlinkSync(chosen, key);
      const linked = baton(['serve', '--port', '0'], { cwd: p.dir, env: { XDG_STATE_HOME: state } });
      assert.notEqual(linked.code, 0);
      assert.match(linked.stderr, /serve\.key must be a regular file of yours/);
      assert.equal(
        existsSync(chosen) ? readFileSync(chosen, 'utf8') : undefined,
        exists ? `${'a'.repeat(43)}\n` : undefined,
      );
      rmSync(key);
    }
  });
});
