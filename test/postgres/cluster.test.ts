import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { startCluster } from '../helpers/postgres-cluster.js';

describe('throwaway PostgreSQL cluster', () => {
  it('serves a fresh database, survives a restart and leaves nothing behind', async () => {
    const cluster = await startCluster();
    const url = await cluster.createDatabase('harness');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE t (n int)');
    await client.query('INSERT INTO t VALUES (1)');
    await client.end();
    cluster.restart();
    const name = new URL(url).pathname.slice(1);
    assert.deepEqual(await cluster.sql(name, 'SELECT n FROM t'), [{ n: 1 }]);
    const folder =
      (await cluster.sql<{ data_directory: string }>('postgres', 'SHOW data_directory'))[0]?.data_directory ?? '';
    assert.ok(existsSync(folder));
    cluster.stop();
    assert.equal(existsSync(folder), false);
  });
});
