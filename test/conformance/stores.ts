import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/stores/file/index.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import type { StoreHarness } from './suite.js';

/**
 * Every backend the conformance suite runs against. A new backend adds one entry: a factory that
 * starts whatever it needs and returns a fresh, empty store whose `cleanup` stops it again.
 */
export const STORES: Record<string, () => Promise<StoreHarness>> = {
  memory: async () => withTree((_root) => new MemoryStore()),
  file: async () => withTree((root) => new FileStore(root)),
};

/** A temp project folder holding the user schema the suite names; mirror files land there too. */
function withTree(make: (root: string) => StoreHarness['store']): StoreHarness {
  const tree = tempTree();
  writeFileSync(join(tree.dir, 'owned.schema.json'), OWNED_SCHEMA);
  return { store: make(tree.dir), root: tree.dir, cleanup: async () => tree.cleanup() };
}
