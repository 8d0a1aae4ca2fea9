import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/stores/memory.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import { runConformance } from './suite.js';

runConformance('memory', async () => {
  const tree = tempTree();
  writeFileSync(join(tree.dir, 'owned.schema.json'), OWNED_SCHEMA);
  return { store: new MemoryStore(), root: tree.dir, cleanup: async () => tree.cleanup() };
});
