/**
 * The CLI's contracts, run in-process (npm run test:fast) through the same error boundary as the
 * built CLI (src/cli/run-cli.ts): exit codes, the one-line messages with their usage line, and the
 * state on disk. The process tests (commands.test.ts, exit-codes.test.ts, ...) hold the built CLI to
 * the same contracts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { allCommands, errorUsage } from '../../src/cli/definitions.js';
import { EXIT } from '../../src/core/errors.js';

/** Commands parsed strictly from their definition, with no stdin or server of their own. */
const STRICT = ['init', 'get', 'update', 'set', 'append', 'consume', 'clear', 'history', 'show', 'revert', 'doctor'];

describe('the CLI in-process', () => {
  it('an unknown command, or no command, is exit 2 with a line saying so', async () => {
    const dir = tempDir('baton-contract-');
    const unknown = await baton(['frobnicate'], { cwd: dir });
    assert.equal(unknown.code, EXIT.usage);
    assert.match(unknown.stderr, /^baton: unknown command 'frobnicate'\nusage: baton <command>/);
    // An inherited key of the command table is no command either.
    assert.equal((await baton(['toString'], { cwd: dir })).code, EXIT.usage);
    assert.equal((await baton([], { cwd: dir })).code, EXIT.usage);
  });

  it('an unknown option is exit 2: one line naming it, then the usage line from the definition', async () => {
    const dir = tempDir('baton-contract-');
    for (const def of allCommands().filter((d) => STRICT.includes(d.name))) {
      const r = await baton([def.name, 'f.json', '--no-such-option'], { cwd: dir });
      assert.equal(r.code, EXIT.usage, def.name);
      assert.deepEqual(
        r.stderr.split('\n'),
        [`baton ${def.name}: unknown option '--no-such-option'`, ...errorUsage(def).split('\n'), ''],
        def.name,
      );
    }
  });

  it('writes and reads a document: exit 0, the value on disk, history kept', async () => {
    const dir = tempDir('baton-contract-');
    assert.equal((await baton(['init', 'doc.json', '--argjson', 'n', '1'], { cwd: dir })).code, 0);
    assert.equal((await baton(['update', 'doc.json', '.n += 1'], { cwd: dir })).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')), { n: 2 });
    const get = await baton(['get', 'doc.json', '.n'], { cwd: dir });
    assert.deepEqual([get.code, get.stdout], [0, '2\n']);
    const history = await baton(['history', 'doc.json', '--json'], { cwd: dir });
    assert.equal(history.code, 0);
    assert.equal(history.stdout.trim().split('\n').length, 2, 'one JSON line per revision');
  });

  it('a schema violation is exit 3 and leaves the document as it was', async () => {
    const dir = tempDir('baton-contract-');
    const schema = join(dir, 'counter.schema.json');
    writeFileSync(
      schema,
      JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] }),
    );
    assert.equal((await baton(['init', 'c.json', '--schema', schema, '--argjson', 'n', '0'], { cwd: dir })).code, 0);
    const before = readFileSync(join(dir, 'c.json'), 'utf8');
    const r = await baton(['set', 'c.json', 'n', '-1'], { cwd: dir });
    assert.equal(r.code, EXIT.invalid);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
    assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), before);
  });

  it('a corrupt document is exit 7 on update, never rewritten; get still answers its default', async () => {
    const dir = tempDir('baton-contract-');
    writeFileSync(join(dir, 'bad.json'), '{"n": ');
    const r = await baton(['update', 'bad.json', '.n = 1'], { cwd: dir });
    assert.equal(r.code, EXIT.corrupt);
    assert.equal(readFileSync(join(dir, 'bad.json'), 'utf8'), '{"n": ');
    const get = await baton(['get', 'bad.json', '.n', '--default', 'none'], { cwd: dir });
    assert.deepEqual([get.code, get.stdout], [0, 'none\n']);
  });

  it('--store memory: keeps documents off the disk, and sets BATON_STORE for the command only', async () => {
    const dir = tempDir('baton-contract-');
    const before = process.env.BATON_STORE;
    assert.equal((await baton(['--store', 'memory:', 'init', 'm.json'], { cwd: dir })).code, 0);
    assert.equal(existsSync(join(dir, 'm.json')), false);
    assert.equal(process.env.BATON_STORE, before, "the test process's environment is not the command's");
    const bad = await baton(['--store'], { cwd: dir });
    assert.equal(bad.code, EXIT.usage);
    assert.match(bad.stderr, /^baton: --store needs a URL: file:/);
  });

  it('show and revert need --rev N: a whole number, else exit 2 naming the flag', async () => {
    const dir = tempDir('baton-contract-');
    await baton(['init', 'h.json', '--argjson', 'n', '1'], { cwd: dir });
    for (const name of ['show', 'revert']) {
      const missing = await baton([name, 'h.json'], { cwd: dir });
      assert.equal(missing.code, EXIT.usage, name);
      assert.match(missing.stderr, new RegExp(`^baton ${name}: --rev N is required\nusage: baton ${name} `));
      const word = await baton([name, 'h.json', '--rev', 'two'], { cwd: dir });
      assert.equal(word.code, EXIT.usage, name);
      assert.match(word.stderr, /--rev must be a whole number, got 'two'/);
    }
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'h.json'), 'utf8')), { n: 1 });
  });

  it('revert restores an old revision as a new one; show prints any revision; clear deletes, history keeps it', async () => {
    const dir = tempDir('baton-contract-');
    await baton(['init', 'r.json', '--argjson', 'n', '1'], { cwd: dir });
    await baton(['set', 'r.json', 'n', '5'], { cwd: dir });
    const revert = await baton(['revert', 'r.json', '--rev', '1', '--as', 'tester'], { cwd: dir });
    assert.deepEqual([revert.code, revert.stderr], [0, 'baton revert: restored revision 1 as revision 3\n']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')), { n: 1 });
    const show = await baton(['show', 'r.json', '--rev', '2'], { cwd: dir });
    assert.equal(show.code, 0);
    assert.deepEqual(JSON.parse(show.stdout), { n: 5 });
    assert.equal((await baton(['clear', 'r.json'], { cwd: dir })).code, 0);
    assert.equal(existsSync(join(dir, 'r.json')), false);
    const deleted = await baton(['show', 'r.json', '--rev', '4'], { cwd: dir });
    assert.deepEqual([deleted.code, deleted.stderr], [0, 'baton show: revision 4 deleted the document\n']);
    const rows = (await baton(['history', 'r.json', '--limit', '2'], { cwd: dir })).stdout.trim().split('\n');
    assert.equal(rows.length, 2);
    assert.match(rows[1] as string, /^r3\t.*\ttester\trevert\tto rev 1\t/);
  });

  it('history says when its default cut the list short, and not when --limit asked for it', async () => {
    const dir = tempDir('baton-contract-');
    await baton(['init', 'l.json', '--argjson', 'n', '0'], { cwd: dir });
    for (let i = 0; i < 20; i++) await baton(['update', 'l.json', '.n += 1'], { cwd: dir });
    const cut = await baton(['history', 'l.json'], { cwd: dir });
    assert.equal(cut.stdout.trim().split('\n').length, 20);
    assert.equal(cut.stderr, 'baton history: the newest 20 revisions; --limit N shows more\n');
    const asked = await baton(['history', 'l.json', '--limit', '3'], { cwd: dir });
    assert.deepEqual([asked.stdout.trim().split('\n').length, asked.stderr], [3, '']);
  });

  it('consume prints the value and leaves null, in one step', async () => {
    const dir = tempDir('baton-contract-');
    await baton(['init', 'q.json', '--arg', 'hint', 'next: tests'], { cwd: dir });
    const first = await baton(['consume', 'q.json', 'hint'], { cwd: dir });
    assert.deepEqual([first.code, first.stdout], [0, 'next: tests\n']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'q.json'), 'utf8')), { hint: null });
    const second = await baton(['consume', 'q.json', 'hint'], { cwd: dir });
    assert.deepEqual([second.code, second.stdout], [0, 'null\n']);
  });
});
