/**
 * The staleness rule of kept reads (src/fs/kept-reads.ts), on real files: a copy is used only
 * while one stat shows the same file, and never for a file changed less than 100 ms before it was
 * read (on a kernel with coarse file times a same-size rewrite in that tick keeps every field).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileBounded } from '../../src/fs/bounded-read.js';
import { keepReads, keptReadCounts, readKept } from '../../src/fs/kept-reads.js';
import { tempDir } from '../helpers/fixtures.js';

const word = (text: string) => text.trim();
const object = (text: string) => JSON.parse(text) as { n: number };
const read = (file: string) => readKept(file, 1024, file, 'fix it', word);

describe('kept reads', () => {
  it('off, every read opens the file; on, a settled file is read once and then checked by stat alone', async (t) => {
    const dir = tempDir();
    t.after(() => keepReads(false));
    const file = join(dir, 'phase');
    writeFileSync(file, 'RED\n');
    assert.equal(read(file), 'RED');
    assert.deepEqual(keptReadCounts(), { hits: 0, reads: 0, entries: 0 });

    keepReads(true);
    // Changed just now: read, but not kept, however often it is asked.
    assert.equal(read(file), 'RED');
    assert.equal(read(file), 'RED');
    assert.deepEqual(keptReadCounts(), { hits: 0, reads: 2, entries: 0 });
    await sleep(150);
    assert.equal(read(file), 'RED');
    assert.equal(read(file), 'RED');
    assert.deepEqual(keptReadCounts(), { hits: 1, reads: 3, entries: 1 });

    // A new file renamed over it, of the same size: a new inode, read at once.
    writeFileSync(`${file}.new`, 'GRN\n');
    renameSync(`${file}.new`, file);
    assert.equal(read(file), 'GRN');
    // Rewritten in place: times move, read again.
    writeFileSync(file, 'BLU\n', { flag: 'r+' });
    assert.equal(read(file), 'BLU');
    assert.equal(keptReadCounts().reads, 5);
  });

  it('one parse per change and per parser, read-only; errors are thrown as the plain read throws them', async (t) => {
    const dir = tempDir();
    keepReads(true);
    t.after(() => keepReads(false));
    const file = join(dir, 'doc.json');
    writeFileSync(file, '{"n": 1}');
    await sleep(150);
    const first = readKept(file, 1024, file, 'fix', object);
    assert.equal(readKept(file, 1024, file, 'fix', object), first, 'the same parse, not a new one');
    assert.ok(Object.isFrozen(first));
    assert.throws(() => {
      first.n = 2;
    }, TypeError);
    assert.equal(
      readKept(file, 1024, file, 'fix', (text) => text.length),
      8,
    );

    assert.throws(() => readKept(join(dir, 'missing'), 1024, 'x', 'fix', word), { code: 'ENOENT' });
    mkdirSync(join(dir, 'folder'));
    const folder = join(dir, 'folder');
    let plain: unknown;
    try {
      readFileBounded(folder, 1024, 'x', 'fix');
    } catch (error) {
      plain = error;
    }
    assert.throws(() => readKept(folder, 1024, 'x', 'fix', word), plain as Error);
    writeFileSync(join(dir, 'big'), 'x'.repeat(2048));
    assert.throws(
      () => readKept(join(dir, 'big'), 1024, 'the big file', 'fix', word),
      /the big file is larger than 1 KiB/,
    );
    writeFileSync(file, 'not json');
    assert.throws(() => readKept(file, 1024, file, 'fix', object), SyntaxError);
  });
});
