import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { schemaTypes, TYPES_DIR } from '../../scripts/schema-types.js';

// The config's and the documents' types are generated from their schemas and committed; a schema
// changed without regenerating them would type the code against a shape the files no longer have.
it('src/generated/types is generated from schemas/ (npm run generate:types)', async () => {
  const expected = await schemaTypes();
  assert.deepEqual(readdirSync(TYPES_DIR).sort(), Object.keys(expected).sort());
  for (const [file, text] of Object.entries(expected))
    assert.equal(readFileSync(join(TYPES_DIR, file), 'utf8'), text, `${file} is stale: run npm run generate:types`);
});
