import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_FOLDERS, generatedFiles, ROOT } from '../../scripts/generate.js';

// Every generated file is committed (neither an install nor a build runs its generator), so a
// source changed without `npm run generate` would leave the docs, the types or the plugin's hooks
// describing something the code no longer is.
it('every generated file is what npm run generate writes, and nothing stale is left beside them', async () => {
  const files = await generatedFiles();
  assert.ok(files.has('docs/cli.md') && files.has('plugin/hooks/hooks.json'));
  const stale = [...files].filter(([path, text]) => readFileSync(join(ROOT, path), 'utf8') !== text).map(([p]) => p);
  assert.deepEqual(stale, [], 'out of date: run npm run generate');
  for (const folder of GENERATED_FOLDERS) {
    const left = readdirSync(join(ROOT, folder)).filter((name) => !files.has(`${folder}/${name}`));
    assert.deepEqual(left, [], `${folder} holds files no generator makes: run npm run generate`);
  }
});
