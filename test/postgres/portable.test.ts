import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Doc } from '../../src/doc/doc.js';
import { isBatonError } from '../../src/core/errors.js';
import { FileStore } from '../../src/stores/file/file-store.js';
import { portableFileStore } from '../../src/stores/file/file-portable.js';
import { exportLines, importLines, type PortableStore } from '../../src/stores/portable.js';
import { createPostgresStore, migratePostgres, type PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import type { Store } from '../../src/stores/store.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

async function exported(store: PortableStore): Promise<string> {
  const lines: string[] = [];
  for await (const line of exportLines(store, 'test')) lines.push(line);
  return `${lines.join('\n')}\n`;
}

/** Documents and history without the header line, which names where they came from. */
const body = (text: string) => text.split('\n').slice(1).join('\n');

describe('export and import between the file store and PostgreSQL', () => {
  let cluster: Cluster;
  let url: string;
  const stores: PostgresStore[] = [];
  const postgres = async (project: string, root: string) => {
    const store = await createPostgresStore({ url, root, project });
    stores.push(store);
    return store;
  };
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('portable');
    await migratePostgres(url);
  });
  after(async () => {
    for (const store of stores) await store.close();
    cluster.stop();
  });

  it('a round trip file -> PostgreSQL -> file yields the same documents and history', async () => {
    const root = tempDir();
    const file = new FileStore(root);
    const open = (store: Store, key: string) => new Doc(store, key, root, { writer: 'alice' });
    await open(file, '.claude/state/current-task.json').init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
    const long = open(file, 'notes/long.json');
    await long.init({ i: 0 });
    for (let i = 1; i <= 230; i++) await long.update('.i = $i', { i });
    const gone = open(file, 'gone.json');
    await gone.init({ a: 1 });
    await gone.clear();
    const edited = open(file, 'edited.json');
    await edited.init({ a: 1 });
    writeFileSync(join(root, 'edited.json'), '{"a":2,   "b":[1]}');
    await edited.update('.c = 3');
    writeFileSync(join(root, 'edited.json'), '\ufeff{"a": 3}');

    const fromFile = await exported(portableFileStore(file));
    const pg = await postgres('round-trip', root);
    assert.deepEqual(await importLines(pg, fromFile, { maxDepth: 256 }), { documents: 4, revisions: 1 + 231 + 2 + 4 });
    const fromPg = await exported(pg);
    assert.equal(body(fromPg), body(fromFile));

    const back = tempDir();
    await importLines(portableFileStore(new FileStore(back)), fromPg, { maxDepth: 256 });
    assert.equal(body(await exported(portableFileStore(new FileStore(back)))), body(fromFile));

    // What a user sees is the same on every store: reads, history, old revisions, further writes.
    for (const store of [file, pg, new FileStore(back)]) {
      assert.deepEqual(await open(store, 'notes/long.json').read(), { i: 230 });
      assert.deepEqual((await open(store, 'notes/long.json').show(150)).doc, { i: 149 });
      assert.equal(await open(store, 'gone.json').read(), undefined);
      assert.deepEqual(await open(store, 'edited.json').read(), { a: 3 });
      assert.equal((await open(store, '.claude/state/current-task.json').history())[0]?.writer, 'alice');
    }
    await open(pg, 'notes/long.json').update('.i += 1');
    assert.equal((await open(pg, 'notes/long.json').history({ limit: 1 }))[0]?.rev, 232);
  });

  it('refuses to import over existing documents, and writes nothing', async () => {
    const root = tempDir();
    const file = new FileStore(root);
    await new Doc(file, 'a.json', root).init({ a: 1 });
    await new Doc(file, 'b.json', root).init({ b: 1 });
    const pg = await postgres('clash', root);
    await new Doc(pg, 'b.json', root).init({ b: 2 });
    await assert.rejects(
      importLines(pg, await exported(portableFileStore(file)), { maxDepth: 256 }),
      (error: unknown) => isBatonError(error, 'exists'),
    );
    assert.deepEqual(await pg.keys(), ['b.json']);
    await assert.rejects(importLines(pg, 'not json\n', { maxDepth: 256 }), (error: unknown) =>
      isBatonError(error, 'usage'),
    );
  });
});
