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
import { loadSchema } from '../../src/doc/schemas.js';

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

it('a schema file changed less than 100 ms before its use is compiled again at the next use; once settled, it is kept', async (t) => {
  // On a kernel that stamps file times from a coarse clock, a same-size rewrite within one tick
  // keeps the identity the cache holds (device, inode, size, times): only a settled file is kept.
  const { dir, cleanup } = tempTree({ 's.schema.json': schema(50) });
  t.after(cleanup);
  // Rounds slower than the window say nothing and are skipped, not failed: a loaded machine only
  // takes more rounds to find three that fall within it.
  let checked = 0;
  for (let round = 0; round < 200 && checked < 3; round++) {
    writeFileSync(join(dir, 's.schema.json'), schema(round % 2 ? 50 : 10));
    const written = Date.now();
    const first = await loadSchema('s.schema.json', dir);
    const second = await loadSchema('s.schema.json', dir);
    // Both uses must fall within the window for the round to say anything.
    if (Date.now() - written >= 90) continue;
    checked++;
    assert.notEqual(first, second, `round ${round}: a file written a moment ago was kept`);
  }
  assert.ok(checked > 0, 'no round used the file within 90 ms of writing it');
  await new Promise((settle) => setTimeout(settle, 150));
  assert.equal(await loadSchema('s.schema.json', dir), await loadSchema('s.schema.json', dir));
});
