/**
 * `baton serve` between listen and ready: a server that cannot announce itself (serve.json cannot
 * be written) must not stay up, unknown to every client, holding the project's server lock.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { createServer } from 'node:net';
import { get, request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, baton, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { greenProject, preToolUse, serveFile, startServe, writePayload } from './serve-process.js';

/** `baton serve ARGS` run to its end; killed after 30 s (a hang guard: the failure is a signal, not a code). */
function serveUntilExit(cwd: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], {
      cwd,
      env: cleanEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    });
  });
}

describe('baton serve: start-up', () => {
  // Before the fix the server went on listening after the failed write: the kill below (a hang
  // guard, not a timing) was what ended it, and the result was a signal, not an exit code.
  it('serve.json that cannot be written: exits non-zero with one line naming the fix, lock released, nothing announced', (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(p.cleanup);
    // A folder at serve.json's name: the atomic rename over it fails.
    mkdirSync(join(p.dir, '.baton', 'serve.json'), { recursive: true });
    const result = baton(['serve', '--port', '0'], { cwd: p.dir, killAfterMs: 30_000 });
    assert.equal(result.code, 8, `exit ${result.code}: ${result.stderr}`);
    assert.equal(result.stdout, '', 'nothing announced on stdout');
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(
      lines[0]!,
      /^baton serve: stopped, it could not announce itself: cannot write .*serve\.json: .*; move the folder away/,
    );
    // What was at the name is left as it was; no temp file of the write is left beside it.
    assert.ok(statSync(join(p.dir, '.baton', 'serve.json')).isDirectory());
    assert.deepEqual(
      readdirSync(join(p.dir, '.baton')).filter((name) => name.startsWith('serve.json.')),
      [],
    );
    // The lock is given back (its file removed), not left for the next start to judge stale.
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.lock')), 'serve.lock released');
  });

  // Before the fix the idle timer, armed before listen, held the process up for its hour after the
  // error was printed; the kill (a hang guard) ended it.
  it('a port already taken: exits 2 naming the fix, and the process ends', async (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(p.cleanup);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    t.after(() => taken.close());
    const port = (taken.address() as { port: number }).port;
    const result = await serveUntilExit(p.dir, ['--port', String(port)]);
    assert.equal(result.code, 2, `exit ${result.code}: ${result.stderr}`);
    assert.match(result.stderr, /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\); choose another --port, or 0/);
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')));
    assert.ok(!existsSync(join(p.dir, '.baton', 'serve.lock')), 'serve.lock released');
  });

  // Before the fix the handlers were installed once the server listened: a SIGTERM that came
  // earlier met Node's default and ended the process where it stood, the lock left behind (the next
  // start took it over as a dead holder's). The signal is sent on the first change in .baton/ (the
  // lock being taken), so it lands between the lock and the announcement in most rounds.
  it('a SIGTERM while it starts: it ends by itself, the lock released and nothing announced or left', async (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(p.cleanup);
    const dir = join(p.dir, '.baton');
    for (let round = 0; round < 8; round++) {
      mkdirSync(dir, { recursive: true });
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
        cwd: p.dir,
        env: cleanEnv(),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const watcher = watch(dir, () => {
        watcher.close();
        child.kill('SIGTERM');
      });
      const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
        child.on('close', (exit, by) => resolve([exit, by])),
      );
      clearTimeout(guard);
      watcher.close();
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, `round ${round}: ${stderr}`);
      assert.ok(!existsSync(join(dir, 'serve.lock')), `round ${round}: serve.lock released`);
      assert.ok(!existsSync(join(dir, 'serve.json')), `round ${round}: no serve.json left`);
    }
  });
});

describe("baton serve in the foreground: the detached server's memory bound", () => {
  const canReexec = typeof (process as { execve?: unknown }).execve === 'function';
  const nodeFlags = (pid: number) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg.startsWith('--max-semi-space-size'));

  // Before, only --detach started Node with the flag: a server started by hand grew its young
  // generation (and its RSS) with calls on PostgreSQL. Node 20 has no process.execve and keeps the
  // default (docs/serve.md says why); on 22.15+ the server starts itself again, in place.
  it('starts itself again in place with --max-semi-space-size=2 where Node can (process.execve): same pid, lines, answers and Ctrl-C', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
      t.after(server.stop);
      assert.match(server.url, /^baton serve: http:\/\/127\.0\.0\.1:\d+$/);
      const pid = server.child.pid!;
      assert.equal(serveFile(p.dir).pid, pid, 'serve.json names the process started, and it answers');
      assert.deepEqual(nodeFlags(pid), canReexec ? ['--max-semi-space-size=2'] : []);
      const answer = await preToolUse(p.dir, writePayload(p.dir, 'backend/tests/test_x.py'));
      assert.match(answer, /"permissionDecision":"deny"/);
      server.child.kill(signal);
      assert.equal(await server.exited, 0, signal);
      assert.ok(!existsSync(join(p.dir, '.baton', 'serve.json')), signal);
      assert.ok(!existsSync(join(p.dir, '.baton', 'serve.lock')), signal);
    }
  });

  it('keeps a semi-space size the user gave Node, and starts only once', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const child = spawn(process.execPath, ['--max-semi-space-size=4', BIN, 'serve', '--port', '0'], {
      cwd: p.dir,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    t.after(() => child.kill('SIGKILL'));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    assert.equal(serveFile(p.dir).pid, child.pid);
    assert.deepEqual(nodeFlags(child.pid!), ['--max-semi-space-size=4']);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  // Before, only the command line's flag counted: one in NODE_OPTIONS (or spelt with '_', as V8
  // also takes it) was overridden by the =2 the start added after it, a 16 MB semi-space became 2.
  it('keeps a semi-space size the user gave in NODE_OPTIONS or with underscores: started as given, in the foreground and detached', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const given: { node: string[]; env: Record<string, string>; flags: string[] }[] = [
      { node: [], env: { NODE_OPTIONS: '--no-warnings --max-semi-space-size=16' }, flags: [] },
      { node: ['--max_semi_space_size=16'], env: {}, flags: ['--max_semi_space_size=16'] },
    ];
    const flagsOf = (pid: number) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((arg) => /^--max[-_]semi[-_]space[-_]size/.test(arg));
    for (const { node, env, flags } of given) {
      const child = spawn(process.execPath, [...node, BIN, 'serve', '--port', '0'], {
        cwd: p.dir,
        env: cleanEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      t.after(() => child.kill('SIGKILL'));
      await new Promise((resolve) => child.stdout.once('data', resolve));
      assert.equal(serveFile(p.dir).pid, child.pid);
      assert.deepEqual(flagsOf(child.pid!), flags, JSON.stringify(env));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
    const started = baton(['serve', '--detach', '--idle-timeout', '0'], {
      cwd: p.dir,
      env: { NODE_OPTIONS: '--max-semi-space-size=16' },
    });
    assert.equal(started.code, 0, started.stderr);
    const { pid } = serveFile(p.dir);
    t.after(() => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // ended already
      }
    });
    assert.deepEqual(flagsOf(pid), [], 'the detached server takes the size from NODE_OPTIONS');
    process.kill(pid, 'SIGTERM');
    while (existsSync(join(p.dir, '.baton', 'serve.lock'))) await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

interface Live {
  pages: number;
  rescanning: boolean;
  watches: number;
}

function health(dir: string): Promise<{ dashboard: Live }> {
  const { url, token } = serveFile(dir);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/health`, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Asks /health until `done` holds: the server sees a stream's end in its own time, so no clock is asserted. */
async function until(dir: string, done: (live: Live) => boolean): Promise<Live> {
  for (;;) {
    const live = (await health(dir)).dashboard;
    if (done(live)) return live;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The dashboard's live-update stream, as an open page holds it; `next` resolves on its next `change`. */
function stream(base: string, cookie: string): Promise<{ res: IncomingMessage; next(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    get(`${base}/api/events`, { headers: { Cookie: cookie } }, (res) => {
      let waiting: (() => void) | undefined;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (chunk.includes('event: change')) waiting?.();
      });
      resolve({ res, next: () => new Promise<void>((done) => (waiting = done)) });
    }).on('error', reject);
  });
}

describe('baton serve: the dashboard costs nothing once no page is open', () => {
  // Before the fix the rescan timer started with the first dashboard request and ran for the
  // server's life: /health then said rescanning with no page open (and idle CPU was not zero).
  it('the rescan timer and the watches run only while a page listens, and live updates still arrive after a page comes back', async (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(p.cleanup);
    assert.equal(baton(['init', 'notes.json', '--arg', 'owner', 'ada'], { cwd: p.dir }).code, 0);
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(server.stop);
    const base = server.url.replace(/^baton serve: /, '');
    const login = await new Promise<IncomingMessage>((resolve) => get(server.ui, resolve));
    login.resume();
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    assert.deepEqual((await health(p.dir)).dashboard, { pages: 0, rescanning: false, watches: 0 });

    const page = await stream(base, cookie);
    const armed = await until(p.dir, (live) => live.watches > 0);
    assert.deepEqual([armed.pages, armed.rescanning], [1, true]);
    page.res.destroy();
    assert.deepEqual(
      await until(p.dir, (live) => live.pages === 0),
      { pages: 0, rescanning: false, watches: 0 },
      'the last page gone: no timer, no watch',
    );

    // A page opened again is told of a write as before.
    const again = await stream(base, cookie);
    t.after(() => again.res.destroy());
    await again.next(); // the change sent once its watches are up
    const told = again.next();
    assert.equal(baton(['set', 'notes.json', 'owner', 'grace'], { cwd: p.dir }).code, 0);
    await told;
    assert.equal((await health(p.dir)).dashboard.rescanning, true);
  });
});

describe('baton serve: the root it judges from', () => {
  // Before the fix the server judged from root/proj (the relative name read again from the root):
  // no project there, so the hook said nothing, an allow.
  it('started with a relative BATON_ROOT: an HTTP hook of a GREEN test write is denied, judged for that root', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const parent = join(p.dir, '..');
    const name = p.dir.split('/').at(-1)!;
    const server = await startServe(parent, ['--port', '0', '--idle-timeout', '0'], { BATON_ROOT: name });
    t.after(server.stop);
    const answer = await preToolUse(p.dir, writePayload(p.dir, 'tests/test_gate.py'));
    assert.match(answer, /"permissionDecision":"deny".*gate-green/);
  });
});
