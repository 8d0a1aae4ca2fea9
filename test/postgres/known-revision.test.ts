/**
 * A PostgreSQL store decides a write on the revision it last committed itself and writes only if
 * the row is still there (one round trip). These tests make that guess wrong, from another
 * connection as another machine would, and check that nothing decided on the old revision lands
 * or is reported: the write is decided again on the committed document.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Doc } from '../../src/doc/doc.js';
import { createPostgresStore, migratePostgres, type PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('PostgreSQL writes decided on the last known revision', () => {
  let cluster: Cluster;
  let url: string;
  const stores: PostgresStore[] = [];
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('known');
    await migratePostgres(url);
  });
  after(async () => {
    for (const store of stores) await store.close();
    cluster.stop();
  });

  /** Two stores on one project: two machines, each remembering its own last commit. */
  const machines = async (project: string) => {
    const root = tempDir();
    const a = await createPostgresStore({ url, root, project });
    const b = await createPostgresStore({ url, root, project });
    stores.push(a, b);
    return { root, a, b };
  };

  it('machines taking turns on one document lose no update: each write lands on the other’s', async () => {
    const { root, a, b } = await machines('known/turns');
    const here = new Doc(a, 'turns.json', root);
    const there = new Doc(b, 'turns.json', root);
    await here.init({ n: 0, by: [] });
    for (let i = 0; i < 10; i++) {
      await here.update('.n += 1 | .by += ["a"]');
      await there.update('.n += 1 | .by += ["b"]');
    }
    const doc = (await here.read()) as { n: number; by: string[] };
    assert.equal(doc.n, 20);
    assert.deepEqual(
      doc.by,
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'a' : 'b')),
    );
    assert.deepEqual(
      (await here.history({ limit: 100 })).map((entry) => entry.rev),
      Array.from({ length: 21 }, (_, i) => 21 - i),
    );
  });

  it('an update the old revision would refuse is decided on the committed one', async () => {
    const { root, a, b } = await machines('known/refusal');
    const here = new Doc(a, 'refusal.json', root);
    await here.init({ s: 'text' });
    await here.update('.s = "still text"');
    await new Doc(b, 'refusal.json', root).update('.s = 5');
    // On the revision `here` remembers, a string plus a number is a jq error.
    await here.update('.s += 1');
    assert.deepEqual(await here.read(), { s: 6 });
  });

  it('a no-op decided on the old revision is not taken: consume returns what another machine put there', async () => {
    const { root, a, b } = await machines('known/noop');
    const here = new Doc(a, 'inbox.json', root);
    await here.init({ item: null });
    await here.update('.seen = true');
    await new Doc(b, 'inbox.json', root).set('item', 'from b');
    assert.equal(await here.consume('item'), 'from b');
    assert.deepEqual(await here.read(), { item: null, seen: true });
  });

  it('writers racing on two machines, several in each process, lose no update', async () => {
    const { root, a, b } = await machines('known/race');
    await new Doc(a, 'race.json', root).init({ n: 0 });
    const loop = async (store: PostgresStore) => {
      const doc = new Doc(store, 'race.json', root);
      for (let i = 0; i < 15; i++) await doc.update('.n += 1');
    };
    await Promise.all([a, a, a, a, b, b, b, b].map(loop));
    assert.deepEqual(await new Doc(b, 'race.json', root).read(), { n: 120 });
  });
});
