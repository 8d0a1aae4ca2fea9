/**
 * A schema file is read again when it changes: one process that runs many commands (baton serve,
 * baton mcp, the dashboard, these in-process tests) applies the schema as it is now, as a new CLI
 * process would, not the one it compiled first.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const schema = (maximum: number) => JSON.stringify({ type: 'object', properties: { n: { type: 'integer', maximum } } });

it('an edited schema file is applied at the next write in the same process; a deleted one is refused', async (t) => {
  const { dir, cleanup } = tempTree({ 's.schema.json': schema(10) });
  t.after(cleanup);
  assert.equal(
    (await baton(['init', 'd.json', '--schema', 's.schema.json', '--argjson', 'n', '1'], { cwd: dir })).code,
    0,
  );
  assert.equal((await baton(['set', 'd.json', 'n', '5'], { cwd: dir })).code, 0);
  writeFileSync(join(dir, 's.schema.json'), schema(2));
  const tightened = await baton(['set', 'd.json', 'n', '6'], { cwd: dir });
  assert.equal(tightened.code, 3, tightened.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')), { n: 5 });
  rmSync(join(dir, 's.schema.json'));
  const gone = await baton(['set', 'd.json', 'n', '1'], { cwd: dir });
  assert.equal(gone.code, 2, gone.stderr);
  assert.match(gone.stderr, /s\.schema\.json cannot be read/);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')), { n: 5 });
});
