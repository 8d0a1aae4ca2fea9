/**
 * Checks every write makes, said in plain code where they were a regular expression or one of
 * Node's functions compiled for that alone (docs/benchmarks.md, "The write path without Node's
 * first calls"). Each is held here to the answer of what it replaced, on the inputs where the two
 * could part: the bounds, the characters around each class, the separators.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileBounded } from '../../src/fs/bounded-read.js';
import { tempTree } from '../helpers/fixtures.js';

describe('the write path, without a regex or a Node function compiled for one check', () => {
  it('a file that says size 0 is read whole: /proc files (the lock reads /proc/<pid>/stat) and an empty file', (t) => {
    const { dir, cleanup } = tempTree({});
    t.after(cleanup);
    mkdirSync(join(dir, 'd'));
    writeFileSync(join(dir, 'd', 'empty'), '');
    assert.equal(readFileBounded(join(dir, 'd', 'empty'), 4096, 'empty', 'fix'), '');
    for (const file of ['/proc/self/status', '/proc/self/mountinfo']) {
      // Read twice by each: a process's own files change little between two reads.
      const text = readFileBounded(file, 1024 * 1024, file, 'fix');
      assert.equal(text.split('\n')[0], readFileSync(file, 'utf8').split('\n')[0], file);
      assert.ok(text.length > 0 && text.endsWith('\n'), file);
    }
    assert.equal(readFileBounded('/proc/self/stat', 4096, 'stat', 'fix').split(' ')[0], String(process.pid));
  });
});
