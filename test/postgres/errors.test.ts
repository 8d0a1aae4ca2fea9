import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Doc } from '../../src/doc/doc.js';
import { isBatonError, type ErrorCode } from '../../src/core/errors.js';
import { createPostgresStore, migratePostgres, SCHEMA_VERSION } from '../../src/stores/postgres/postgres-store.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

async function fails(promise: Promise<unknown>, code: ErrorCode, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isBatonError(error), `expected a BatonError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, pattern);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

describe('PostgreSQL store errors', () => {
  let cluster: Cluster;
  let url: string;
  const root = tempDir();
  const open = (at: string, options: { lockTimeoutMs?: number; poolSize?: number; connectRetryMs?: number } = {}) =>
    createPostgresStore({ url: at, root, project: 'errors', ...options });
  const read = async (at: string, options: { connectRetryMs?: number } = {}) => {
    const store = await open(at, options);
    try {
      return await new Doc(store, 'a.json', root).read();
    } finally {
      await store.close();
    }
  };
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('errors');
  });
  after(() => cluster.stop());

  it('a database without the tables names baton store migrate, and nothing is created', async () => {
    await fails(read(url), 'io', /no baton tables; run 'baton store migrate'/);
    const name = new URL(url).pathname.slice(1);
    assert.deepEqual(await cluster.sql(name, `SELECT to_regclass('baton_meta') AS t`), [{ t: null }]);
    assert.deepEqual(await migratePostgres(url), { from: 0, to: SCHEMA_VERSION });
    assert.deepEqual(await migratePostgres(url), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    assert.equal(await read(url), undefined);
  });

  it('a schema version other than this baton’s is refused with the fix', async () => {
    const name = new URL(url).pathname.slice(1);
    const setVersion = (v: number) =>
      cluster.sql(name, `UPDATE baton_meta SET value = $1 WHERE name = 'schema_version'`, [String(v)]);
    await setVersion(SCHEMA_VERSION + 1);
    await fails(read(url), 'io', /newer than this baton's .*; upgrade baton/);
    await setVersion(0);
    await fails(read(url), 'io', /run 'baton store migrate' to upgrade them/);
    await setVersion(SCHEMA_VERSION);
  });

  it('a wrong password, a missing database and a refused connection are one-line io errors', async () => {
    await fails(
      read(cluster.url(new URL(url).pathname.slice(1), { password: 'wrong' })),
      'io',
      /refused the login.*password/,
    );
    await fails(read(cluster.url('nowhere')), 'io', /database "nowhere" does not exist; create it/);
    const closed = `postgres://postgres:x@127.0.0.1:1/db`;
    await fails(
      read(closed, { connectRetryMs: 0 }),
      'io',
      /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/db \(ECONNREFUSED\)/,
    );
    for (const at of [cluster.url('nowhere', { password: 'secret-pass' })]) {
      await assert.rejects(read(at), (error: Error) => !error.message.includes('secret-pass'));
    }
  });

  it('a row lock held past lock_timeout ends in lock_timeout (exit 6), and nothing is written', async () => {
    const store = await open(url, { lockTimeoutMs: 200 });
    const doc = new Doc(store, 'locked.json', root);
    await doc.init({ n: 0 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM baton_documents WHERE key = 'locked.json' FOR UPDATE`);
    await assert.rejects(doc.update('.n += 1'), (error: unknown) => {
      assert.ok(isBatonError(error, 'lock_timeout'));
      assert.equal(error.exitCode, 6);
      return true;
    });
    await holder.query('ROLLBACK');
    await holder.end();
    assert.deepEqual(await doc.read(), { n: 0 });
    await doc.update('.n += 1');
    assert.deepEqual(await doc.read(), { n: 1 });
    await store.close();
  });

  it('a pool whose connections all stay busy ends in lock_timeout, not a hang', async () => {
    const store = await open(url, { lockTimeoutMs: 200, poolSize: 1 });
    let release = () => undefined as void;
    const busy = store.transact(
      'held.json',
      () => new Promise<{ result: undefined }>((resolve) => (release = () => resolve({ result: undefined }))),
    );
    await fails(
      new Doc(store, 'other.json', root).read(),
      'lock_timeout',
      /all 1 PostgreSQL connections of this process stayed busy/,
    );
    release();
    await busy;
    await store.close();
  });
});
