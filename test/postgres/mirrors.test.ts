import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Doc } from '../../src/doc/doc.js';
import { createPostgresStore, migratePostgres, type PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('mirror files with a PostgreSQL store', () => {
  let cluster: Cluster;
  const stores: PostgresStore[] = [];
  // Two machines: two project folders sharing one project in one database.
  const machine = async (url: string) => {
    const root = tempDir();
    const store = await createPostgresStore({ url, root, project: 'shared' });
    stores.push(store);
    return { root, doc: new Doc(store, '.claude/state/current-task.json', root) };
  };
  before(async () => {
    cluster = await startCluster();
  });
  after(async () => {
    for (const store of stores) await store.close();
    cluster.stop();
  });

  it('are written on the committing machine and refreshed on another by a read', async () => {
    const url = await cluster.createDatabase('mirrors');
    await migratePostgres(url);
    const a = await machine(url);
    const b = await machine(url);
    const phase = (root: string) => join(root, '.claude', 'state', 'phase');
    await a.doc.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
    await a.doc.update('.tdd_phase = "RED"');
    assert.equal(readFileSync(phase(a.root), 'utf8'), 'RED\n');
    assert.equal(existsSync(phase(b.root)), false);
    await b.doc.read();
    assert.equal(readFileSync(phase(b.root), 'utf8'), 'RED\n');
    await a.doc.update('.tdd_phase = "GREEN"');
    assert.equal(readFileSync(phase(b.root), 'utf8'), 'RED\n');
    await b.doc.get('.slug');
    assert.equal(readFileSync(phase(b.root), 'utf8'), 'GREEN\n');
    writeFileSync(phase(a.root), 'stale\n');
    await a.doc.read();
    assert.equal(readFileSync(phase(a.root), 'utf8'), 'GREEN\n');
  });
});
