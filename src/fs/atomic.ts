/**
 * Atomic replace: unique temp file in the target's own folder, fsync, rename, fsync the folder.
 * Hand-written rather than `write-file-atomic` because that library does not fsync the folder
 * (a rename is only durable once its directory entry is) and costs ~4 ms of module loading in
 * every hook process. There is deliberately no non-atomic fallback.
 */
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BatonError, isBatonError, systemFix } from '../core/errors.js';
import { uniqueHex } from '../core/hash.js';
import { statFollowing } from './absent.js';
import { tempName } from './file-names.js';

export interface AtomicWriteOptions {
  /** fsync file and folder (default true). Mirrors and caches pass false: they are derived data. */
  durable?: boolean;
  /** Mode for a new file; an existing target keeps its own mode. */
  mode?: number;
  /** fsync the folder after the rename (default: durable). Off when the caller does it later. */
  syncDir?: boolean;
  /** Runs after the temp file is complete, right before the rename; throwing cancels the write. */
  beforeRename?: () => void;
}

/** Temp names look like `.NAME.PID.HEX.tmp` (NAME shortened when too long, see tempName), so the doctor can tell ours from anything else. */
export const TEMP_FILE_PATTERN = /^\.(.+)\.(\d+)\.([0-9a-f]{12})\.tmp$/;

export function tempPathFor(target: string): string {
  return join(dirname(target), tempName(basename(target), process.pid, uniqueHex(12)));
}

export function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  const mode = existingMode(target) ?? options.mode;
  const temp = tempPathFor(target);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode ?? 0o666);
    if (mode !== undefined) fchmodSync(fd, mode);
    // UTF-8 by default, without Node's encoding lookup (history-segments.ts's appendEntry says why)
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    options.beforeRename?.();
    renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    unlinkQuietly(temp);
    if (isBatonError(error)) throw error;
    throw new BatonError(
      'io',
      `cannot write ${target}: ${systemFix(error) ?? `${(error as Error).message}; check the folder exists and is writable`}`,
      { cause: error },
    );
  }
  if (options.syncDir ?? durable) fsyncDir(dirname(target));
}

/**
 * `mkdir -p` that reports the real reason: Node's recursive mkdir says ENOENT when the parent is
 * read-only or not writable, which would send the user looking for a missing folder.
 */
export function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    try {
      mkdirSync(dir);
    } catch (plain) {
      if ((plain as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw (plain as NodeJS.ErrnoException).code === 'ENOENT' ? error : plain;
    }
  }
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The mode of what is at `path`, a link followed (through lstat first: absent.ts's statFollowing says why). */
function existingMode(path: string): number | undefined {
  try {
    const stat = statFollowing(path);
    return stat === undefined ? undefined : stat.mode & 0o7777;
  } catch {
    return undefined;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already failing; the original error is the one worth reporting
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing to clean up
  }
}
