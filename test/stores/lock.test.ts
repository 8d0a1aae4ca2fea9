import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../src/fs/lock.js';
import { isBatonError } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const record = (pid: number, host: string, at: number) => `${pid}\n${host}\n${at}\ntoken-${pid}\n\n`;

describe('the file lock', () => {
  it('takes over from a dead holder on this host at once', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const path = join(dir, 'x.lock');
    writeFileSync(path, record(Number(dead.stdout), hostname(), Date.now()));
    // Taken over, not waited out: a wait for the record to age (60 s) ends in lock_timeout. The
    // budget is the only clock, and a wide one, so load alone cannot fail it.
    const handle = await acquireLock(path, { timeoutMs: 10_000, staleMs: 60_000 });
    assert.match(readFileSync(path, 'utf8'), new RegExp(`^${process.pid}\\n`));
    handle.release();
    assert.equal(existsSync(path), false);
  });

  it('takes over from a holder killed and not reaped (a zombie) at once', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    // The shell starts the holder, SIGKILLs it, then becomes `sleep`, which never waits for it:
    // the holder stays a zombie (state Z) as under a PID 1 that does not reap.
    const parent = spawn('sh', ['-c', 'sleep 1000 & echo $!; kill -9 $!; exec sleep 1000'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    t.after(() => parent.kill('SIGKILL'));
    const zombie = Number(
      await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
    );
    const stat = () => readFileSync(`/proc/${zombie}/stat`, 'utf8');
    while (!/\) Z /.test(stat())) await new Promise((r) => setTimeout(r, 10));
    const start = stat()
      .slice(stat().lastIndexOf(')') + 2)
      .split(' ')[19];
    const path = join(dir, 'x.lock');
    writeFileSync(path, `${zombie}\n${hostname()}\n${Date.now()}\ntoken-z\n${start}\n`);
    // A zombie judged alive is waited on until the budget ends in lock_timeout.
    const handle = await acquireLock(path, { timeoutMs: 5_000, staleMs: 600_000 });
    assert.match(readFileSync(path, 'utf8'), new RegExp(`^${process.pid}\\n`));
    handle.release();
  });

  it('a stealer killed while holding the steal guard does not block the next one', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    const path = join(dir, 'x.lock');
    writeFileSync(path, record(dead, hostname(), Date.now()));
    writeFileSync(`${path}.steal`, record(dead, hostname(), Date.now()));
    // A dead stealer's guard that blocked takers until it aged out (10 s) would end in lock_timeout.
    const handle = await acquireLock(path, { timeoutMs: 5_000 });
    handle.release();
    assert.equal(existsSync(`${path}.steal`), false);
  });

  it('takes a lock from another host only once its heartbeat (mtime) is stale, whatever its age', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    writeFileSync(path, record(1, 'another-host', Date.now() - 3_600_000));
    await assert.rejects(
      acquireLock(path, { timeoutMs: 300, staleMs: 60_000 }),
      (error: unknown) => isBatonError(error, 'lock_timeout') && /pid 1 on another-host/.test(error.message),
    );
    assert.match(readFileSync(path, 'utf8'), /another-host/);
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    const handle = await acquireLock(path, { timeoutMs: 300, staleMs: 60_000 });
    handle.release();
  });

  it('arms the heartbeat only for a hold that reaches the event loop, and then it beats', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    const armed: unknown[] = [];
    const real = globalThis.setInterval;
    t.after(() => (globalThis.setInterval = real));
    globalThis.setInterval = ((...args: Parameters<typeof real>) => {
      armed.push(args[1]);
      return real(...args);
    }) as typeof real;
    const turn = () => new Promise((done) => setImmediate(done));
    // Taken and released in one turn (a CLI write): no beat could have fired, none is armed.
    (await acquireLock(path, { staleMs: 100 })).release();
    await turn();
    assert.deepEqual(armed, []);
    // A hold that waits keeps its lock fresh: a beat touches the mtime set an hour back.
    const handle = await acquireLock(path, { staleMs: 100 });
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path, old, old);
    while (lstatSync(path).mtimeMs < Date.now() - 60_000) await new Promise((done) => setTimeout(done, 5));
    assert.deepEqual(armed, [25]);
    handle.release();
    assert.equal(existsSync(path), false);
  });

  it('a hold that goes through many microtasks (more than a CLI write takes) before the event loop is armed and beats there', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    const handle = await acquireLock(path, { staleMs: 100 });
    t.after(() => handle.release());
    // Resolved promises only: the hold goes on without the loop for 1,000 continuations, past
    // where the check stops waiting for a release among the microtasks (lock.ts, holding).
    for (let i = 0; i < 1000; i++) await Promise.resolve();
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path, old, old);
    while (lstatSync(path).mtimeMs < Date.now() - 60_000) await new Promise((done) => setTimeout(done, 5));
  });

  it('a hold that ran longer than a beat before reaching the event loop beats as soon as it does', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    const handle = await acquireLock(path, { staleMs: 100 });
    t.after(() => handle.release());
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path, old, old);
    // Busy past the 25 ms period without yielding, as a long synchronous write would be.
    for (const start = Date.now(); Date.now() - start < 30;);
    await new Promise((done) => process.nextTick(done));
    assert.ok(lstatSync(path).mtimeMs > Date.now() - 60_000, 'the lock was touched');
  });

  it('treats a record-less lock as being created, not as stale, until the ceiling', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    writeFileSync(path, '');
    await assert.rejects(acquireLock(path, { timeoutMs: 250 }), (error: unknown) =>
      isBatonError(error, 'lock_timeout'),
    );
    assert.equal(readFileSync(path, 'utf8'), '');
  });

  it('release removes only its own lock', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const path = join(dir, 'x.lock');
    const handle = await acquireLock(path);
    writeFileSync(path, record(process.pid, hostname(), Date.now()).replace(`token-${process.pid}`, 'someone-else'));
    handle.release();
    assert.equal(existsSync(path), true);
  });

  it('waits by sleeping, not spinning: a 1.5 s wait costs little CPU', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    mkdirSync(join(dir, 'locks'));
    const path = join(dir, 'locks', 'x.lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    t.after(() => holder.kill('SIGKILL'));
    writeFileSync(path, record(holder.pid!, hostname(), Date.now()));
    const script = `
      const { acquireLock } = await import(${JSON.stringify(join(ROOT, 'src/fs/lock.ts'))});
      const before = process.cpuUsage();
      await acquireLock(${JSON.stringify(path)}, { timeoutMs: 1500 }).catch(() => undefined);
      const used = process.cpuUsage(before);
      console.log((used.user + used.system) / 1000);`;
    const waiter = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    const cpuMs = Number(waiter.stdout.trim());
    assert.ok(Number.isFinite(cpuMs), waiter.stderr);
    assert.ok(cpuMs < 250, `waiting 1.5 s used ${cpuMs} ms of CPU`);
  });

  it('a queue that keeps moving never times out, even when it is longer than the wait budget', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    writeFileSync(join(dir, 'c.json'), '{"n":0}');
    // 16 writers each holding the lock 250 ms, started together: the last waits at least 15 x 250 ms,
    // past its 2.5 s budget; the budget bounds one holder (10 times its hold, so load alone does
    // not reach it), not the queue (the old absolute deadline failed most of them).
    const writers = 16;
    const script = `
      const { existsSync } = await import('node:fs');
      const { openDoc } = await import(${JSON.stringify(join(ROOT, 'dist/index.mjs'))});
      const doc = openDoc('c.json', { cwd: ${JSON.stringify(dir)}, lockTimeoutMs: 2500 });
      process.stdout.write('ready');
      while (!existsSync('go')) await new Promise((r) => setTimeout(r, 5));
      const asked = Date.now();
      try {
        await doc.update(async (d) => { await new Promise((r) => setTimeout(r, 250)); return { ...d, n: d.n + 1, waits: [...(d.waits ?? []), Date.now() - asked] }; });
      } catch (error) { process.stderr.write(String(error.code)); process.exitCode = error.exitCode ?? 70; }`;
    const ready: Promise<void>[] = [];
    const results = Array.from({ length: writers }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: dir,
        env: { ...process.env, BATON_ROOT: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // A writer that dies before it is ready must not hang the test: it counts as ready, and fails.
      ready.push(
        new Promise((resolve) => {
          child.stdout.once('data', () => resolve());
          child.once('close', () => resolve());
        }),
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.on('close', (code) => resolve({ code, stderr })),
      );
    });
    await Promise.all(ready);
    writeFileSync(join(dir, 'go'), '');
    assert.deepEqual(
      (await Promise.all(results)).filter((r) => r.code !== 0),
      [],
    );
    const doc = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    assert.equal(doc.n, writers);
    assert.ok(Math.max(...doc.waits) > 2500, `the queue outlasted the budget: waits ${doc.waits}`);
  });
});
