/**
 * `baton serve` on a PostgreSQL store keeps the documents a decision reads, by revision, with one
 * pool for the server (src/serve/shared-state.ts). Attacked here: another machine commits a phase
 * and this machine's next PreToolUse comes at once (no notification can be waited for: the revision
 * check must see it), a mirror removed here under a kept document, and the server's connections cut.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openDoc } from '../../src/index.js';
import { baton } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';
import { eneoProject, type EneoProject } from '../harness/helpers.js';
import { serve } from './hook-client.js';
import { holdingProxy } from './holding-proxy.js';

const TEST_FILE = 'tests/test_x.py';
const TASK = '.claude/state/current-task.json';

describe('baton serve on PostgreSQL: the documents a decision reads, kept by revision', () => {
  let cluster: Cluster;
  let url: string;
  const projects: EneoProject[] = [];
  const machine = (project: string, config: object = {}) => {
    const p = eneoProject({}, { profile: 'eneo', store: url, project, ...config });
    projects.push(p);
    return p;
  };
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('serve');
    const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
    assert.equal(migrate.code, 0, migrate.stderr);
  });
  after(() => {
    for (const p of projects) p.cleanup();
    cluster.stop();
  });

  it('a phase another machine committed a moment before is the phase this machine judges by, every round', async (t) => {
    const a = machine('race');
    const b = machine('race');
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    for (let round = 0; round < 10; round++) {
      const phase = round % 2 ? 'GREEN' : 'RED';
      const set = a.task(['phase-set', phase]);
      assert.equal(set.code, 0, set.stderr);
      assert.equal(await server.write(TEST_FILE), phase === 'GREEN' ? 'deny' : 'allow', `round ${round}: ${phase}`);
      // b's mirror follows, written by b's server as baton hook's read writes it.
      assert.equal(readFileSync(join(b.dir, '.claude/state/phase'), 'utf8').trim(), phase);
    }
  });

  it("a phase committed through another machine's store handle a moment before is the phase judged, every round", async (t) => {
    // The server decides on what it keeps while it asks the store which revisions are committed
    // (serve/shared-state.ts): a decision on a copy older than this commit must never be the answer.
    const a = machine('handle');
    const b = machine('handle');
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    const task = openDoc(TASK, { cwd: a.dir, env: a.env });
    for (let round = 0; round < 30; round++) {
      const phase = round % 2 ? 'GREEN' : 'RED';
      await task.update((doc) => ({ ...(doc as object), tdd_phase: phase }), {}, { writer: 'eneo-state' });
      assert.equal(await server.write(TEST_FILE), phase === 'GREEN' ? 'deny' : 'allow', `round ${round}: ${phase}`);
      // Asked again with nothing committed in between: the kept copy answers alike.
      assert.equal(await server.write(TEST_FILE), phase === 'GREEN' ? 'deny' : 'allow', `round ${round}: again`);
    }
    await task.store.close();
  });

  it('a revision check sent before the hook arrived does not count for it, even when its answer comes after', async (t) => {
    // The server reaches the store through a proxy that can hold the store's answers: a check is
    // answered at RED and held, the phase is committed GREEN, the hook arrives, then the answer is let go.
    const proxy = await holdingProxy(new URL(url));
    t.after(() => proxy.close());
    const a = machine('held');
    const b = eneoProject({}, { profile: 'eneo', store: proxy.url, project: 'held' });
    projects.push(b);
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(a.task(['phase-set', 'RED']).code, 0);
    const server = await serve(b.dir, b.env, { sockets: 2 });
    t.after(() => server.stop());
    // The checks' own session is opened by now, so what is held below is a check's answer.
    for (let i = 0; i < 3; i++) assert.equal(await server.write(TEST_FILE), 'allow');
    const task = openDoc(TASK, { cwd: a.dir, env: a.env });
    t.after(() => task.store.close());
    // Its connection opened first: a commit under the hold must land well inside the check's budget.
    await task.update((doc) => ({ ...(doc as object), tdd_phase: 'RED' }), {}, { writer: 'eneo-state' });
    for (let round = 0; round < 3; round++) {
      proxy.hold();
      const before = server.write(TEST_FILE);
      await proxy.holding();
      await task.update((doc) => ({ ...(doc as object), tdd_phase: 'GREEN' }), {}, { writer: 'eneo-state' });
      const after = server.write(TEST_FILE);
      // Time for the hook to reach the server (were it not there yet, this round would prove nothing).
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.release();
      await before;
      assert.equal(await after, 'deny', `round ${round}`);
      await task.update((doc) => ({ ...(doc as object), tdd_phase: 'RED' }), {}, { writer: 'eneo-state' });
      assert.equal(await server.write(TEST_FILE), 'allow', `round ${round}: RED again`);
    }
  });

  it("a store that stops answering while the revisions are asked: judged by this machine's files, which the answer says", async (t) => {
    const p = machine('midflight');
    assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    const server = await serve(p.dir, p.env);
    t.after(() => server.stop());
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.equal(await server.write(TEST_FILE), 'deny');
    // The revision query waits behind a lock on the table, and its session is then ended.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    t.after(() => locker.end());
    await locker.query('BEGIN; LOCK TABLE baton_documents IN ACCESS EXCLUSIVE MODE');
    let settled = false;
    const answer = server.raw(TEST_FILE).finally(() => (settled = true));
    let ended = 0;
    while (!settled && ended === 0) {
      const waiting = await locker.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = 'baton'`,
      );
      for (const { pid } of waiting.rows) {
        await cluster.sql(new URL(url).pathname.slice(1), 'SELECT pg_terminate_backend($1)', [pid]);
        ended++;
      }
    }
    const text = await answer;
    await locker.query('ROLLBACK');
    // Cut or timed out (its budget may run out first on a loaded machine), the check failed mid-flight.
    assert.match(text, /"permissionDecision":"deny"/);
    assert.match(text, /the shared store could not be read/);
    // Back up, the committed state is read again: RED set here is the phase judged.
    assert.equal(p.task(['phase-set', 'RED']).code, 0);
    assert.equal(await server.write(TEST_FILE), 'allow');
  });

  it("another machine's claim on the work board reserves its paths for this machine's very next PreToolUse, and its done frees them", async (t) => {
    const a = machine('board');
    const b = machine('board');
    const work = (args: string[]) =>
      baton(['work', ...args], { cwd: a.dir, env: { ...a.env, BATON_AGENT: 'holder', BATON_SESSION: 'other' } });
    assert.equal(work(['add', 'api', '--title', 'API', '--paths', 'src/api/**']).code, 0);
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    for (let round = 0; round < 3; round++) {
      assert.equal(await server.write('src/api/x.ts'), 'allow', `round ${round}: free`);
      assert.equal(work(['claim', 'api']).code, 0);
      assert.match(
        await server.raw('src/api/x.ts'),
        /"permissionDecision":"deny".*board-reserved/,
        `round ${round}: held`,
      );
      assert.equal(work(['release', 'api']).code, 0);
    }
    assert.equal(await server.write('src/api/x.ts'), 'allow');
  });

  it('the task moved to another path in baton.config.json under the server: the next decision reads it there', async (t) => {
    // The server resolves the configured documents' keys once per config (BATON_ROOT set, paths
    // relative): a config that names another path is another config, resolved again.
    const p = machine('moved');
    assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    const task = openDoc(TASK, { cwd: p.dir, env: p.env });
    const other = openDoc('other/task.json', { cwd: p.dir, env: p.env });
    t.after(() => Promise.all([task.store.close(), other.store.close()]));
    await other.init({ ...((await task.read()) as object), tdd_phase: 'RED' });
    const server = await serve(p.dir, p.env);
    t.after(() => server.stop());
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.equal(await server.write(TEST_FILE), 'deny');
    writeFileSync(
      join(p.dir, 'baton.config.json'),
      JSON.stringify({
        profile: 'eneo',
        store: url,
        project: 'moved',
        documents: { task: { path: 'other/task.json' } },
      }),
    );
    assert.equal(await server.write(TEST_FILE), 'allow', 'judged on the task at its new path (RED)');
  });

  it('a mirror removed here under a kept document is restored before the decision, which denies', async (t) => {
    const p = machine('mirror');
    assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    const server = await serve(p.dir, p.env);
    t.after(() => server.stop());
    assert.equal(await server.write(TEST_FILE), 'deny');
    rmSync(join(p.dir, '.claude/state/phase'));
    // Missing, the mirror would read as FREE and allow: the kept GREEN task puts it back first.
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.ok(existsSync(join(p.dir, '.claude/state/phase')));
  });

  it("with the server's connections cut, the next decision reads the committed state again", async (t) => {
    const p = machine('cut');
    assert.equal(p.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(p.task(['phase-set', 'RED']).code, 0);
    const server = await serve(p.dir, p.env);
    t.after(() => server.stop());
    assert.equal(await server.write(TEST_FILE), 'allow');
    const cut = await cluster.sql<{ n: string }>(
      new URL(url).pathname.slice(1),
      `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    assert.ok(Number(cut[0]?.n) >= 1, 'the server held a connection');
    assert.equal(p.task(['phase-set', 'GREEN']).code, 0);
    // The first try after the cut may find its pooled connection dead: it judges by the files here
    // (GREEN, written by this machine's phase-set) and says so; either way the write is denied.
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.equal(p.task(['phase-set', 'RED']).code, 0);
    assert.equal(await server.write(TEST_FILE), 'allow');
  });

  // The check is a named statement, planned once per session: a column of its result changed under
  // it (a migration, an administrator) fails it with 'cached plan must not change result type'
  // while the store answers. Before the fix that decision judged by this machine's stale files (RED
  // here: allow) although the store was there to say GREEN.
  it('a schema change under the prepared revision check: the next decision still reads the committed state', async (t) => {
    const own = await cluster.createDatabase('schema');
    const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: own } });
    assert.equal(migrate.code, 0, migrate.stderr);
    const on = (p: EneoProject) => (projects.push(p), p);
    const a = on(eneoProject({}, { profile: 'eneo', store: own, project: 'schema' }));
    const b = on(eneoProject({}, { profile: 'eneo', store: own, project: 'schema' }));
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(a.task(['phase-set', 'RED']).code, 0);
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    // Twice: the second decision is the one that runs the prepared check.
    assert.equal(await server.write(TEST_FILE), 'allow');
    assert.equal(await server.write(TEST_FILE), 'allow');
    await cluster.sql(new URL(own).pathname.slice(1), 'ALTER TABLE baton_documents ALTER COLUMN key TYPE varchar');
    assert.equal(a.task(['phase-set', 'GREEN']).code, 0);
    assert.equal(readFileSync(join(b.dir, '.claude/state/phase'), 'utf8').trim(), 'RED', "b's files still say RED");
    const answer = await server.raw(TEST_FILE);
    assert.match(answer, /"permissionDecision":"deny"/);
    assert.doesNotMatch(answer, /could not be read/, 'the store was there: no fallback to the files here');
    assert.equal(await server.write(TEST_FILE), 'deny');
  });

  // Revisions start again at 1 in a table dropped and made again (a restore, an operator, a
  // migration from nothing): a copy kept at revision 3 matched the new document's revision 3, and
  // the gate judged by the old document.
  it('the tables dropped and made again, the document rewritten to the revision kept: the new document is judged', async (t) => {
    const own = await cluster.createDatabase('epoch');
    const db = new URL(own).pathname.slice(1);
    const migrate = () => {
      const done = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: own } });
      assert.equal(done.code, 0, done.stderr);
    };
    migrate();
    const on = (p: EneoProject) => (projects.push(p), p);
    const a = on(eneoProject({}, { profile: 'eneo', store: own, project: 'epoch' }));
    const b = on(eneoProject({}, { profile: 'eneo', store: own, project: 'epoch' }));
    const rev = async () =>
      (await cluster.sql<{ rev: number }>(db, `SELECT rev FROM baton_documents WHERE key LIKE '%current-task.json'`))[0]
        ?.rev;
    const phases = (...list: string[]) => {
      assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
      for (const phase of list) assert.equal(a.task(['phase-set', phase]).code, 0);
    };
    phases('RED', 'GREEN');
    const kept = await rev();
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    // Twice: the second decision runs the prepared revision check against the kept copy.
    assert.equal(await server.write(TEST_FILE), 'deny');
    assert.equal(await server.write(TEST_FILE), 'deny');
    await cluster.sql(db, 'DROP TABLE baton_documents, baton_history, baton_meta');
    migrate();
    phases('GREEN', 'RED');
    assert.equal(await rev(), kept, 'the new task at the revision the server kept');
    // b's mirror still says GREEN, as the kept copy does: only the store can say RED.
    assert.equal(await server.write(TEST_FILE), 'allow');
    assert.equal(await server.write(TEST_FILE), 'allow');
  });

  it('a Stop while a document moved runs its checks once, on the committed documents, and blocks', async (t) => {
    // The server may decide before the store confirms what it keeps, but only a tool call's gate,
    // which writes nothing: run twice, a Stop's check would run twice and its block, remembered by
    // the first run, would be let through by the second as "the same reason twice in a row".
    const config = { stop: { commands: [{ name: 'check', run: 'echo ran >> .runs; exit 1' }] } };
    const a = machine('stop', config);
    const b = machine('stop', config);
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    const server = await serve(b.dir, b.env);
    t.after(() => server.stop());
    const task = openDoc(TASK, { cwd: a.dir, env: a.env });
    t.after(() => task.store.close());
    for (let round = 0; round < 3; round++) {
      assert.equal(await server.write(TEST_FILE), 'allow', `round ${round}: the documents are kept`);
      await task.update((doc) => ({ ...(doc as object), tdd_phase: 'RED' }), {}, { writer: 'eneo-state' });
      const answer = await server.hook('Stop', {
        session_id: `s${round}`,
        hook_event_name: 'Stop',
        stop_hook_active: false,
        cwd: b.dir,
      });
      assert.match(answer, /"decision":"block"/, `round ${round}: ${answer}`);
      assert.equal(
        readFileSync(join(b.dir, '.runs'), 'utf8'),
        'ran\n'.repeat(round + 1),
        `round ${round}: the check ran once`,
      );
    }
  });
});
