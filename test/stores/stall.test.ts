/**
 * Stalled and slow lock holders. A holder here is a library process whose updater
 * announces `holding` and then waits: for a line on stdin (a stall the test controls) or for a
 * sleep (a slow updater). It prints `done REV` or `error CODE` and exits with the error's code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { baton, batonAsync, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

interface Holder {
  child: ChildProcess;
  /** Resolves when the holder prints a line starting with `prefix`. */
  line(prefix: string): Promise<string>;
  exit: Promise<number>;
}

function startHolder(dir: string, options: { env?: Record<string, string>; sleepMs?: number } = {}): Holder {
  const wait =
    options.sleepMs === undefined
      ? 'new Promise((r) => process.stdin.once("data", r))'
      : `new Promise((r) => setTimeout(r, ${options.sleepMs}))`;
  const script = `
    const { openDoc } = await import(${JSON.stringify(join(ROOT, 'src/index.ts'))});
    const doc = openDoc('c.json', { cwd: ${JSON.stringify(dir)} });
    try {
      const result = await doc.update(async (d) => { process.stdout.write('holding\\n'); await ${wait}; return { ...d, n: d.n + 1 }; });
      process.stdout.write('done ' + result.rev + '\\n');
    } catch (error) {
      process.stdout.write('error ' + error.code + '\\n');
      process.exitCode = error.exitCode ?? 70;
    }
    process.stdin.destroy();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: cleanEnv({ BATON_ROOT: dir, ...options.env }),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  child.stdout.on('data', (chunk) => {
    out += chunk;
    for (const w of [...waiting]) {
      const line = out.split('\n').find((l) => l.startsWith(w.prefix));
      if (line !== undefined) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return {
    child,
    exit,
    line: (prefix) =>
      new Promise((resolve, reject) => {
        const found = out.split('\n').find((l) => l.startsWith(prefix));
        if (found !== undefined) return resolve(found);
        waiting.push({ prefix, resolve });
        void exit.then(() => reject(new Error(`holder exited before printing ${prefix}: ${out}`)));
      }),
  };
}

/** Makes the lock record look as if it was taken, and last refreshed, ten minutes ago. */
function ageLock(lock: string): void {
  const [pid, host, , token, start] = readFileSync(lock, 'utf8').split('\n');
  const then = Date.now() - 600_000;
  writeFileSync(lock, `${pid}\n${host}\n${then}\n${token}\n${start}\n`);
  utimesSync(lock, new Date(then), new Date(then));
}

function revisions(dir: string): number[] {
  const out = baton(['history', 'c.json', '--limit', '10000', '--json'], { cwd: dir });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { rev: number }).rev);
}

function assertUniqueRevisions(dir: string): void {
  const revs = revisions(dir);
  assert.equal(new Set(revs).size, revs.length, `duplicate revisions in history: ${revs.join(',')}`);
}

const count = (dir: string) => (JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as { n: number }).n;

describe('stalled and slow lock holders (real processes)', () => {
  it('a stopped holder, however old its lock, is waited for: every acknowledged write lands, no duplicate revisions', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
    const holder = startHolder(dir);
    t.after(() => holder.child.kill('SIGKILL'));
    await holder.line('holding');
    holder.child.kill('SIGSTOP');
    // The stall outlives every age limit: the record now says ten minutes (the old rule stole at 60 s).
    ageLock(join(dir, '.baton', 'c.json.lock'));
    const loops = Array.from({ length: 4 }, async () => {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await batonAsync(['update', 'c.json', '.n += 1'], { cwd: dir })).code);
      return codes;
    });
    await sleep(2000);
    holder.child.kill('SIGCONT');
    holder.child.stdin!.write('go\n');
    const codes = (await Promise.all(loops)).flat();
    assert.match(await holder.line('done'), /^done \d+$/);
    assert.equal(await holder.exit, 0);
    const acknowledged = codes.filter((code) => code === 0).length + 1;
    assert.deepEqual(
      codes.filter((code) => code !== 0),
      [],
      'no writer timed out or failed',
    );
    assert.equal(count(dir), acknowledged);
    assertUniqueRevisions(dir);
  });

  for (const host of ['this host', 'another host']) {
    it(`a library updater sleeping past the stale limit keeps its lock (${host})`, async (t) => {
      const { dir, cleanup } = tempTree();
      t.after(cleanup);
      baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
      // The heartbeat beats every quarter of the stale limit; 1.5 s leaves a loaded machine a stall
      // of over a second before a live holder would look gone (at 300 ms, one busy moment did that).
      const stale = { BATON_LOCK_STALE_MS: '1500' };
      const env = { ...stale, ...(host === 'another host' ? { BATON_HOST_ID: 'test-host-a' } : {}) };
      const holder = startHolder(dir, { env, sleepMs: 4000 });
      t.after(() => holder.child.kill('SIGKILL'));
      await holder.line('holding');
      const waiter = await batonAsync(['update', 'c.json', '.n += 100'], { cwd: dir, env: stale });
      assert.equal(waiter.code, 0, waiter.stderr);
      assert.match(await holder.line('done'), /^done \d+$/);
      assert.equal(await holder.exit, 0);
      assert.equal(count(dir), 101);
      assertUniqueRevisions(dir);
    });
  }

  it('a holder whose lock was taken over (stale heartbeat on another host) writes nothing and exits 6', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
    const holder = startHolder(dir, { env: { BATON_HOST_ID: 'test-host-a', BATON_LOCK_STALE_MS: '300' } });
    t.after(() => holder.child.kill('SIGKILL'));
    await holder.line('holding');
    holder.child.kill('SIGSTOP');
    const taker = await batonAsync(['update', 'c.json', '.n += 100'], {
      cwd: dir,
      env: { BATON_LOCK_STALE_MS: '300' },
    });
    assert.equal(taker.code, 0, taker.stderr);
    const before = revisions(dir);
    holder.child.kill('SIGCONT');
    holder.child.stdin!.write('go\n');
    assert.equal(await holder.line('error'), 'error lock_lost');
    assert.equal(await holder.exit, 6);
    assert.equal(count(dir), 100);
    assert.deepEqual(revisions(dir), before, 'the refused commit left no history line');
    assert.equal(baton(['doctor', dir], { cwd: dir }).code, 0);
  });

  it('a holder whose lock file was removed and retaken by another writer writes nothing and exits 6', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir });
    const holder = startHolder(dir);
    t.after(() => holder.child.kill('SIGKILL'));
    await holder.line('holding');
    holder.child.kill('SIGSTOP');
    unlinkSync(join(dir, '.baton', 'c.json.lock'));
    const taker = await batonAsync(['update', 'c.json', '.n += 100'], { cwd: dir });
    assert.equal(taker.code, 0, taker.stderr);
    const before = revisions(dir);
    holder.child.kill('SIGCONT');
    holder.child.stdin!.write('go\n');
    assert.equal(await holder.line('error'), 'error lock_lost');
    assert.equal(await holder.exit, 6);
    assert.equal(count(dir), 100);
    assert.deepEqual(revisions(dir), before);
  });
});
