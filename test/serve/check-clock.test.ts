/**
 * `baton serve` on PostgreSQL lets a revision check already in flight answer a hook that arrived
 * after it was sent, when the database began that check after the hook arrived (the database's
 * transaction start, placed on the server's clock: src/serve/check-clock.ts). Attacked here
 * against a real cluster whose clock is its own (libfaketime, read from a file on every call): a
 * check held on its way to the database must answer the hook that came meanwhile, on the commit
 * acknowledged before it; and a check the database began before that commit must not, when the
 * database's clock is stepped forward after the offset was read, nor when it runs ahead all along.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDoc } from '../../src/index.js';
import { baton } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';
import { eneoProject, type EneoProject } from '../harness/helpers.js';
import { serve } from './hook-client.js';
import { holdingProxy } from './holding-proxy.js';

const TEST_FILE = 'tests/test_x.py';
const TASK = '.claude/state/current-task.json';

/** libfaketime's preload library, or a failure naming the fix: these tests never skip. */
function faketime(): string {
  for (const lib of readdirSync('/usr/lib')) {
    const path = join('/usr/lib', lib, 'faketime', 'libfaketime.so.1');
    if (existsSync(path)) return path;
  }
  throw new Error(
    "no libfaketime.so.1 under /usr/lib/*/faketime; install it with 'apt-get install faketime' (.ci/run does)",
  );
}

describe("baton serve on PostgreSQL: a check in flight answers a hook only when the database began it after the hook's arrival", () => {
  let cluster: Cluster;
  let url: string;
  const clockDir = mkdtempSync(join(tmpdir(), 'baton-clock-'));
  /** The database's clock, as libfaketime reads it: an offset from this machine's, in seconds. */
  const offset = join(clockDir, 'offset');
  const setClock = (seconds: number) =>
    writeFileSync(offset, `${seconds >= 0 ? '+' : ''}${seconds}\n`, { mode: 0o644 });
  const projects: EneoProject[] = [];
  before(async () => {
    // The server runs as the postgres user when the tests run as root: it must read the file.
    chmodSync(clockDir, 0o755);
    setClock(0);
    cluster = await startCluster({
      env: {
        LD_PRELOAD: faketime(),
        FAKETIME_TIMESTAMP_FILE: offset,
        FAKETIME_NO_CACHE: '1',
        // Its timeouts keep the real monotonic clock: only the wall clock, what transaction_timestamp() reads, moves.
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
    });
    url = await cluster.createDatabase('clock');
    const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
    assert.equal(migrate.code, 0, migrate.stderr);
  });
  after(() => {
    for (const p of projects) p.cleanup();
    cluster.stop();
    rmSync(clockDir, { recursive: true, force: true });
  });

  /** Machine a writes directly; machine b's server reaches the store through a proxy that can hold its traffic. */
  const machines = async (project: string) => {
    const proxy = await holdingProxy(new URL(url));
    const a = eneoProject({}, { profile: 'eneo', store: url, project });
    const b = eneoProject({}, { profile: 'eneo', store: proxy.url, project });
    projects.push(a, b);
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(a.task(['phase-set', 'RED']).code, 0);
    const server = await serve(b.dir, b.env, { sockets: 2 });
    const task = openDoc(TASK, { cwd: a.dir, env: a.env });
    const phase = (tdd_phase: string) =>
      task.update((doc) => ({ ...(doc as object), tdd_phase }), {}, { writer: 'eneo-state' });
    // Its connection opened first, so a commit under a hold lands at once.
    await phase('RED');
    return {
      proxy,
      server,
      phase,
      close: async () => {
        await server.stop();
        proxy.close();
        await task.store.close();
      },
    };
  };

  it('a hook that arrives while the check is on its way to the database is answered by it, on the commit acknowledged before', async (t) => {
    const { proxy, server, phase, close } = await machines('early');
    t.after(close);
    let answeredEarly = 0;
    for (let round = 0; round < 5; round++) {
      // Fresh readings of the database's clock (each check's start against when it was sent).
      for (let i = 0; i < 3; i++) assert.equal(await server.write(TEST_FILE), 'allow', `round ${round}: RED`);
      const seen = await server.shared();
      proxy.hold('queries');
      const first = server.write(TEST_FILE);
      await proxy.holding();
      await phase('GREEN');
      const second = server.write(TEST_FILE);
      // Time for the hook to reach the server (were it not there yet, the round shows nothing new).
      await sleep(20);
      proxy.release();
      assert.equal(await first, 'deny', `round ${round}: the first hook`);
      assert.equal(await second, 'deny', `round ${round}: the hook that came after the commit`);
      const now = await server.shared();
      if (now.checks - seen.checks === 1 && now.early - seen.early === 1) answeredEarly++;
      await phase('RED');
    }
    assert.ok(answeredEarly > 0, 'in no round did the check in flight answer the hook that arrived while it waited');
  });

  it("a check the database began before a commit does not answer a hook that came after it, the database's clock stepped forward or ahead", async (t) => {
    const { proxy, server, phase, close } = await machines('late');
    t.after(close);
    t.after(() => setClock(0));
    for (const [round, label] of ['stepped forward 5 s after the offset was read', '5 s ahead all along'].entries()) {
      for (let i = 0; i < 3; i++) assert.equal(await server.write(TEST_FILE), 'allow', `${label}: RED`);
      if (round === 0) setClock(5);
      // The check is answered at RED and held; GREEN is committed; then the hook comes.
      proxy.hold('answers');
      const first = server.write(TEST_FILE);
      await proxy.holding();
      await phase('GREEN');
      const second = server.write(TEST_FILE);
      await sleep(20);
      proxy.release();
      assert.equal(await first, 'allow', `${label}: the hook that came before the commit`);
      assert.equal(await second, 'deny', `${label}: the hook that came after it`);
      await phase('RED');
    }
  });
});
