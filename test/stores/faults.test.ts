/**
 * Faults of the machine made real: a full disk is a small tmpfs, a read-only folder is
 * a read-only bind mount (chmod does not stop root). Both need root and mount(8); elsewhere these
 * tests are skipped with the reason.
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readdirSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

function mount(args: string[]): boolean {
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

/** Unmounts everything mounted under `dir`, stacked mounts included, innermost first. */
function unmountAll(dir: string): void {
  for (let pass = 0; pass < 10; pass++) {
    const points = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((point) => point.startsWith(`${dir}/`));
    if (points.length === 0) return;
    for (const point of points.sort((a, b) => b.length - a.length)) spawnSync('umount', [point], { stdio: 'ignore' });
  }
}

/** A folder of its own tmpfs of `kb` KiB, unmounted after the test; undefined when mounting is not allowed. */
function tmpfs(t: TestContext, kb: number): string | undefined {
  const { dir, cleanup } = tempTree();
  const mnt = join(dir, 'mnt');
  mkdirSync(mnt);
  if (!mount(['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', mnt])) {
    cleanup();
    return undefined;
  }
  t.after(() => {
    unmountAll(dir);
    cleanup();
  });
  return mnt;
}

/** Makes `path` (a folder or a file, inside a `tmpfs` folder) read-only in place. */
function readOnly(path: string): void {
  assert.ok(mount(['--bind', path, path]) && mount(['-o', 'remount,ro,bind', path]), `cannot bind ${path} read-only`);
}

/** Fills the file system of `dir` with a filler file; returns its path. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const page = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, page);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  return filler;
}

function revisions(dir: string): number[] {
  const out = baton(['history', 'c.json', '--limit', '1000', '--json'], { cwd: dir });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { rev: number }).rev);
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

/** One line on stderr, naming a path, with no stack trace. */
function assertOneLine(stderr: string, path: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0] as string, path);
  assert.doesNotMatch(stderr, /internal error|\n\s+at /);
}

describe('faults of the machine (real mounts)', () => {
  it('a full disk refuses the write with exit 8 and leaves no history line, lock temp or document temp', (t) => {
    const dir = tmpfs(t, 256);
    if (!dir) return t.skip('needs root to mount a tmpfs');
    assert.equal(baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir }).code, 0);
    assert.equal(baton(['update', 'c.json', '.n += 1'], { cwd: dir }).code, 0);
    const before = readFileSync(join(dir, 'c.json'), 'utf8');
    const revs = revisions(dir);
    const filler = fill(dir);

    // Not a page left: the lock itself cannot be written.
    const noLock = baton(['update', 'c.json', '.n += 1'], { cwd: dir });
    assert.equal(noLock.code, 8);
    assertOneLine(noLock.stderr, /c\.json\.lock: no space left/);

    // One page left: the lock and the history line fit, the document does not.
    truncateSync(filler, readFileSync(filler).length - 4096);
    const noDoc = baton(['update', 'c.json', '.n += 1'], { cwd: dir });
    assert.equal(noDoc.code, 8);
    assertOneLine(noDoc.stderr, /c\.json: no space left/);

    assert.equal(readFileSync(join(dir, 'c.json'), 'utf8'), before);
    assert.deepEqual(revisions(dir), revs, 'no phantom revision for the write that never landed');
    assert.deepEqual(
      allFiles(dir).filter((name) => name.endsWith('.tmp') || name.includes('.lock')),
      [],
    );
    assert.equal(baton(['doctor', dir], { cwd: dir }).code, 0);

    truncateSync(filler, 0);
    assert.equal(baton(['update', 'c.json', '.n += 1'], { cwd: dir }).code, 0);
    assert.deepEqual(revisions(dir), [revs[0]! + 1, ...revs]);
  });

  it('a read-only document folder (its .baton writable) refuses with exit 8 and keeps no history line', (t) => {
    const root = tmpfs(t, 1024);
    if (!root) return t.skip('needs root to mount');
    const dir = join(root, 'proj');
    mkdirSync(dir);
    assert.equal(baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir }).code, 0);
    const revs = revisions(dir);
    // The project folder read-only, its .baton folder still writable (a bind mount of a copy).
    cpSync(join(dir, '.baton'), join(root, 'sidecar'), { recursive: true });
    readOnly(dir);
    assert.ok(mount(['--bind', join(root, 'sidecar'), join(dir, '.baton')]));

    const result = baton(['update', 'c.json', '.n = 5'], { cwd: dir });
    assert.equal(result.code, 8);
    assertOneLine(result.stderr, /c\.json: the file system is read-only/);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')), { n: 0 });
    assert.deepEqual(revisions(dir), revs);
  });

  it('a read-only history segment is one line naming it, exit 8, not a stack trace', (t) => {
    const dir = tmpfs(t, 1024);
    if (!dir) return t.skip('needs root to mount');
    assert.equal(baton(['init', 'c.json', '--argjson', 'n', '0'], { cwd: dir }).code, 0);
    const segment = join(dir, '.baton', 'c.json.history', '000000000001.jsonl');
    readOnly(segment);
    const result = baton(['update', 'c.json', '.n = 5'], { cwd: dir });
    assert.equal(result.code, 8);
    assertOneLine(result.stderr, /000000000001\.jsonl: the file system is read-only/);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')), { n: 0 });
  });

  it('a document in a folder where .baton cannot be made is one line naming the folder, exit 8', (t) => {
    const dir = tmpfs(t, 1024);
    if (!dir) return t.skip('needs root to mount');
    readOnly(dir);
    const result = baton(['init', 'c.json'], { cwd: dir });
    assert.equal(result.code, 8);
    assertOneLine(result.stderr, /\.baton: the file system is read-only/);
  });
});
