import { writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { isoSeconds } from '../core/iso-time.js';
import { joinLines, setMarkerField, splitLines, usesCrlf } from './text.js';
import { stateLockPath } from './goal-paths.js';
import { readGoalBytes, readGoalText } from './goal-read.js';

/** Lock budget for a state.md edit: edits take milliseconds; a hung holder is stolen after 60 s. */
const LOCK_TIMEOUT_MS = 10_000;

export function readLines(path: string): string[] {
  return splitLines(readGoalText(path));
}

/** Runs fn under the state.md lock (the one lock for a goal's state file and log rotation). */
export function underStateLock<T>(stateFile: string, fn: () => T | Promise<T>): Promise<T> {
  return withLock(stateLockPath(stateFile), { timeoutMs: LOCK_TIMEOUT_MS, label: stateFile }, fn);
}

/**
 * The lines `editState` hands out are byte strings (latin1: one char per byte), so bytes that
 * are not UTF-8 (a Latin-1 paste, binary junk) survive a rewrite unchanged, as they do in the
 * original's awk; decoding as UTF-8 would turn each into U+FFFD. Every marker and heading the
 * edits look for is ASCII, which reads the same either way. Text from argv goes in through
 * `toBytes`, lines shown to the user come out through `fromBytes`.
 */
export function toBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function fromBytes(raw: string): string {
  return Buffer.from(raw, 'latin1').toString('utf8');
}

/**
 * Read-modify-write of state.md: lock, read, edit, atomic replace (mode kept, no temp left on
 * failure). `edit` gets and returns byte-string lines (see toBytes), or undefined for "no
 * change". `touchUpdated` sets updated= to now on the result, as every goal.sh edit does.
 */
export async function editState(
  stateFile: string,
  edit: (lines: string[]) => string[] | undefined,
  options: { touchUpdated?: boolean; now?: Date } = {},
): Promise<string[]> {
  return underStateLock(stateFile, () => {
    const raw = readGoalBytes(stateFile).toString('latin1');
    const before = splitLines(raw);
    let after = edit(before);
    if (options.touchUpdated) after = setMarkerField(after ?? before, 'updated', isoSeconds(options.now));
    if (after === undefined || after === before) return before;
    writeFileAtomic(stateFile, Buffer.from(joinLines(after, usesCrlf(raw) ? '\r\n' : '\n'), 'latin1'));
    return after;
  });
}
