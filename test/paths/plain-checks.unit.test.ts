/**
 * Checks every write makes, said in plain code where they were a regular expression or one of
 * Node's functions compiled for that alone (docs/benchmarks.md, "The write path without Node's
 * first calls"). Each is held here to the answer of what it replaced, on the inputs where the two
 * could part: the bounds, the characters around each class, the separators.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { relativePath } from '../../src/fs/confine.js';
import { checkDocumentKey } from '../../src/stores/keys.js';
import { segmentFiles } from '../../src/stores/file/history-segments.js';
import { readFileBounded } from '../../src/fs/bounded-read.js';
import { isBatonError } from '../../src/core/errors.js';
import { statFollowing } from '../../src/fs/absent.js';
import { applyPatch, diff } from '../../src/core/patch.js';
import { tempTree } from '../helpers/fixtures.js';

describe('the write path, without a regex or a Node function compiled for one check', () => {
  it("relativePath is path.relative's answer: inside, equal, outside, a sibling sharing a prefix, the filesystem root, relative and untidy paths", () => {
    const roots = ['/', '/a', '/a/b', '/a/b/', '/a//b', '/a/./b', 'a', 'a/b', '.', ''];
    const paths = [
      '/',
      '/a',
      '/a/b',
      '/a/bc',
      '/a/b/c',
      '/a/b/c/d.json',
      '/a/b/../c',
      '/a/b/./c/',
      '/x/y',
      'a/b/c',
      'c',
      '..',
      '../a',
      '',
    ];
    for (const root of roots)
      for (const path of paths)
        assert.equal(relativePath(root, path), relative(root, path), `relativePath(${root}, ${path})`);
  });

  it("statFollowing is statSync's answer (throwIfNoEntry: false): a file, a folder, links to each, a dangling link, a link loop, a missing path, a file in place of a folder", (t) => {
    const { dir, cleanup } = tempTree({ 'f.txt': 'x', 'd/g.txt': 'yy' });
    t.after(cleanup);
    symlinkSync(join(dir, 'f.txt'), join(dir, 'to-f'));
    symlinkSync(join(dir, 'd'), join(dir, 'to-d'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    const seen = (look: () => unknown) => {
      try {
        const stat = look() as { isFile(): boolean; isDirectory(): boolean; size: number; mode: number } | undefined;
        return stat && [stat.isFile(), stat.isDirectory(), stat.size, stat.mode];
      } catch (error) {
        return (error as NodeJS.ErrnoException).code;
      }
    };
    for (const name of [
      'f.txt',
      'd',
      'd/g.txt',
      'to-f',
      'to-d',
      'to-d/g.txt',
      'dangling',
      'loop',
      'missing',
      'f.txt/x',
      'd/missing/x',
    ]) {
      const path = join(dir, name);
      assert.deepEqual(
        seen(() => statFollowing(path)),
        seen(() => statSync(path, { throwIfNoEntry: false })),
        name,
      );
    }
  });

  it('a document key is refused for every control character and DEL, a drive letter, .. and .baton (either separator), and no other', () => {
    const refused = (key: string) => {
      try {
        checkDocumentKey(key);
        return false;
      } catch (error) {
        assert.ok(isBatonError(error, 'unsafe_path'), String(error));
        return true;
      }
    };
    for (let code = 0; code < 0x20; code++) assert.ok(refused(`a${String.fromCharCode(code)}.json`), `U+${code}`);
    assert.ok(refused('a\u007f.json'));
    for (const key of [
      '',
      '/a.json',
      'C:x.json',
      'c:/x.json',
      'Z:',
      'a:b',
      '../x.json',
      'a\\..\\x.json',
      'a/.baton/x.json',
      '.baton\\x.json',
    ])
      assert.ok(refused(key), key);
    for (const key of [
      'a.json',
      'a/b.json',
      ' a.json',
      'a\u0080.json',
      'é.json',
      ':x.json',
      '1:x.json',
      '@:x',
      '[:x',
      '`:x',
      '{:x',
      'é:x',
      'a.b:c',
      '..a.json',
      'a/..b/c.json',
    ])
      assert.ok(!refused(key), key);
  });

  it("history's patches escape and replay keys with ~ and / as RFC 6901 says (~0, ~1, in that order)", () => {
    const before = { 'a/b': 1, '~1': 2, '~0/~': { '/~/': 3 }, plain: 4 };
    const after = { 'a/b': 5, '~1': 6, '~0/~': { '/~/': 7 }, plain: 4 };
    const ops = diff(before, after);
    assert.deepEqual(
      ops.map((op) => op.path),
      ['/a~1b', '/~01', '/~00~1~0/~1~0~1'],
    );
    assert.deepEqual(applyPatch(before, ops), after);
  });

  it('history lists only segment names of exactly 12 digits and .jsonl', (t) => {
    const { dir, cleanup } = tempTree({});
    t.after(cleanup);
    const kept = ['000000000001.jsonl', '000000001001.jsonl'];
    const other = [
      '00000000001.jsonl',
      '0000000000001.jsonl',
      '00000000000a.jsonl',
      '00000000000٣.jsonl',
      '000000000001.jsonl.tmp',
      '000000000001.jsonlx',
      '000000000001.json',
      ' 00000000001.jsonl',
      '000000000001,jsonl',
    ];
    for (const name of [...kept, ...other]) writeFileSync(join(dir, name), '');
    assert.deepEqual(
      segmentFiles(dir),
      kept.map((name) => join(dir, name)),
    );
  });

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
