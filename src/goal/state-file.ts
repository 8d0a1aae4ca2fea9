import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../stores/file/atomic.js';
import { withLock } from '../stores/file/lock.js';
import { isoTime } from './time.js';
import { joinLines, setMarkerField, splitLines } from './text.js';
import { stateLockPath } from './paths.js';

/** Lock budget for a state.md edit: edits take milliseconds; a hung holder is stolen after 60 s. */
const LOCK_TIMEOUT_MS = 10_000;

export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function readLines(path: string): string[] {
  return splitLines(readFileSync(path, 'utf8'));
}

/** Runs fn under the state.md lock (the one lock for a goal's state file and log rotation). */
export function underStateLock<T>(stateFile: string, fn: () => T | Promise<T>): Promise<T> {
  return withLock(stateLockPath(stateFile), { timeoutMs: LOCK_TIMEOUT_MS, label: stateFile }, fn);
}

/**
 * Read-modify-write of state.md: lock, read, edit, atomic replace (mode kept, no temp left on
 * failure). `edit` returns the new lines or undefined for "no change". `touchUpdated` sets
 * updated= to now on the written result, as every goal.sh edit does.
 */
export async function editState(
  stateFile: string,
  edit: (lines: string[]) => string[] | undefined,
  options: { touchUpdated?: boolean; now?: Date } = {},
): Promise<string[]> {
  return underStateLock(stateFile, () => {
    const before = readLines(stateFile);
    let after = edit(before);
    if (options.touchUpdated) after = setMarkerField(after ?? before, 'updated', isoTime(options.now));
    if (after === undefined || (after === before)) return before;
    writeFileAtomic(stateFile, joinLines(after));
    return after;
  });
}
