import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/stores/file/index.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import { runConformance } from './suite.js';

runConformance('file', async () => {
  const tree = tempTree();
  writeFileSync(join(tree.dir, 'owned.schema.json'), OWNED_SCHEMA);
  return { store: new FileStore(tree.dir), root: tree.dir, cleanup: async () => tree.cleanup() };
});
