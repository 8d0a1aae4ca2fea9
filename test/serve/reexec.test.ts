/**
 * A foreground `baton serve` starts itself again with --max-semi-space-size=2 through
 * process.execve (Node 22.15 and later), which cannot fail gracefully: a failed call aborts the
 * process (SIGABRT) with nothing to catch. Where it would fail, the server keeps running as it is,
 * saying so in one line; and a second start that finds the server running says so without starting
 * Node again. On a Node without process.execve (20) there is no re-exec: each still serves, and
 * says nothing of it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, linkSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { greenProject, preToolUse, serveFile, startServe, writePayload } from './serve-process.js';

const canReexec = typeof (process as { execve?: unknown }).execve === 'function';
const FLAG = '--max-semi-space-size=2';
const semiSpace = (pid: number) =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((arg) => arg.startsWith('--max-semi-space-size'));

/** `node [...nodeArgs] BIN serve --port 0 --idle-timeout 0` in `cwd`, read until its first two lines or its end. */
function serveWith(node: string, nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(node, [...nodeArgs, BIN, 'serve', '--port', '0', '--idle-timeout', '0'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const announced = new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.split('\n').length > 2) resolve(out);
    });
    void exited.then(() => resolve(undefined));
  });
  return { child, exited, announced, stderr: () => err };
}

/** Started, serving (a GREEN test write denied through it) as the process first started, then stopped by SIGTERM. */
async function servesThenStops(dir: string, server: ReturnType<typeof serveWith>): Promise<number> {
  const lines = await server.announced;
  if (lines === undefined)
    assert.fail(`baton serve ended before it served: ${JSON.stringify(await server.exited)} ${server.stderr()}`);
  assert.match(lines, /^baton serve: http:\/\/127\.0\.0\.1:\d+\n/);
  const pid = server.child.pid!;
  assert.equal(serveFile(dir).pid, pid);
  assert.match(await preToolUse(dir, writePayload(dir, 'backend/tests/test_x.py')), /"permissionDecision":"deny"/);
  server.child.kill('SIGTERM');
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr());
  return pid;
}

describe('baton serve: starting itself again where it cannot', () => {
  // Before: the execve of a binary no longer there aborted the server (SIGABRT) before it listened.
  it("Node's binary gone by then: it serves without the flag, and says why in one line", async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const dir = tempDir('baton-reexec-');
    const node = join(dir, 'node');
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
      chmodSync(node, 0o755);
    }
    // Preloaded into the server's process: its binary is removed before serve looks at it (as an
    // upgrade that replaced Node's folder would leave it).
    const gone = join(dir, 'gone.cjs');
    writeFileSync(gone, "require('node:fs').unlinkSync(process.execPath);\n");
    const server = serveWith(node, ['-r', gone], p.dir, cleanEnv());
    t.after(() => server.child.kill('SIGKILL'));
    const pid = await servesThenStops(p.dir, server);
    assert.ok(pid > 0);
    assert.equal(
      server.stderr(),
      canReexec
        ? `baton serve: not started again with ${FLAG} (Node's binary ${node} cannot be run (ENOENT)); it serves with Node's default young generation\n`
        : '',
    );
  });

  // Before: arguments and environment that fit the first start but not the flag besides (32
  // bytes: the argument and its pointer) made execve fail with E2BIG, and the server abort.
  it('an environment that leaves no room for the flag: it serves without it, and one 32 bytes smaller starts again with it', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const base = cleanEnv();
    // A fixed number of variables (each within the 128 KiB a string may take), so only their length varies.
    const padded = (bytes: number): NodeJS.ProcessEnv => {
      const env = { ...base };
      const count = 100;
      for (let i = 0; i < count; i++)
        env[`BATON_TEST_PAD_${i}`] = 'x'.repeat(Math.floor(bytes / count) + (i < bytes % count ? 1 : 0));
      return env;
    };
    // The largest padding with which a process of the server's start fits: the same file, as many
    // arguments, and as many bytes in them (`-e` and its script stand for BIN and serve's flags).
    const startArgs = [BIN, 'serve', '--port', '0', '--idle-timeout', '0'];
    const startBytes = startArgs.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
    const probeArgs = (filler: number) => ['-e', `0//${'x'.repeat(filler)}`, 'a', 'b', 'c', 'd'];
    const filler = startBytes - probeArgs(0).reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
    assert.equal(probeArgs(filler).length, startArgs.length);
    const fits = (bytes: number) =>
      spawnSync(process.execPath, probeArgs(filler), { env: padded(bytes) }).error === undefined;
    let low = 0;
    let high = 100 * 128 * 1024 - 200;
    assert.ok(fits(low) && !fits(high));
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (fits(mid)) low = mid;
      else high = mid;
    }

    const full = serveWith(process.execPath, [], p.dir, padded(low));
    t.after(() => full.child.kill('SIGKILL'));
    const pid = await servesThenStops(p.dir, full);
    assert.ok(pid > 0);
    assert.match(
      full.stderr(),
      canReexec
        ? new RegExp(
            `^baton serve: not started again with ${FLAG} \\(its arguments and environment take \\d+ bytes, past the system's limit of \\d+\\); it serves with Node's default young generation\\n$`,
          )
        : /^$/,
    );

    // 32 bytes less, the flag fits: the check does not refuse what execve would take.
    const room = serveWith(process.execPath, [], p.dir, padded(low - 32));
    t.after(() => room.child.kill('SIGKILL'));
    const lines = await room.announced;
    assert.ok(lines, room.stderr());
    assert.deepEqual(semiSpace(room.child.pid!), canReexec ? [FLAG] : []);
    assert.doesNotMatch(room.stderr(), /not started again/);
    await servesThenStops(p.dir, { ...room, announced: Promise.resolve(lines) });
  });

  // Before: the second start became a new Node process (about 40 ms) before it looked for the server.
  it('a second start that finds the server running says so as before, exit 0, without starting Node again', async (t) => {
    const p = greenProject();
    t.after(p.cleanup);
    const server = await startServe(p.dir, ['--port', '0', '--idle-timeout', '0']);
    t.after(server.stop);
    const dir = tempDir('baton-reexec-');
    const starts = join(dir, 'starts');
    const count = join(dir, 'count.cjs');
    writeFileSync(count, `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'node\\n');\n`);
    const second = spawnSync(process.execPath, ['-r', count, BIN, 'serve', '--port', '0'], {
      cwd: p.dir,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, `${server.url}\nbaton serve: dashboard ${server.ui}\n`);
    assert.equal(second.stderr, `baton serve: already running for this project (pid ${server.child.pid})\n`);
    assert.equal(readFileSync(starts, 'utf8'), 'node\n', 'Node started once');
  });
});
