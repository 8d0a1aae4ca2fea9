import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/stores/file/file-store.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { createPostgresStore, migratePostgres } from '../../src/stores/postgres/postgres-store.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import { startCluster } from '../helpers/postgres-cluster.js';
import type { StoreHarness } from './suite.js';

/**
 * Every backend the conformance suite runs against. A new backend adds one entry: a factory that
 * starts whatever it needs and returns a fresh, empty store whose `cleanup` stops it again.
 */
export const STORES: Record<string, () => Promise<StoreHarness>> = {
  memory: async () => withTree((_root) => new MemoryStore()),
  file: async () => withTree((root) => new FileStore(root)),
  postgres: async () => {
    const cluster = await startCluster();
    const url = await cluster.createDatabase('conformance');
    await migratePostgres(url);
    const tree = withTree(() => new MemoryStore());
    const store = await createPostgresStore({ url, root: tree.root, project: 'conformance' });
    return {
      store,
      root: tree.root,
      cleanup: async () => {
        await store.close();
        cluster.stop();
        await tree.cleanup();
      },
    };
  },
};

/** A temp project folder holding the user schema the suite names; mirror files land there too. */
function withTree(make: (root: string) => StoreHarness['store']): StoreHarness {
  const tree = tempTree();
  writeFileSync(join(tree.dir, 'owned.schema.json'), OWNED_SCHEMA);
  return { store: make(tree.dir), root: tree.dir, cleanup: async () => tree.cleanup() };
}
