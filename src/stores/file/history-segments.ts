/**
 * History as append-only JSON Lines, cut into segments of SEGMENT_SIZE revisions named by their
 * first revision. A commit appends one line and reads only the tail of the newest segment, so
 * the cost of a write does not grow with the number of revisions; segments older than the
 * retention window are dropped whole (each segment starts with a snapshot, so replay still works).
 */
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isAsciiDigits } from '../../core/ascii.js';
import { BatonError, fromSystemError } from '../../core/errors.js';
import type { HistoryEntry } from '../store.js';
import { fsyncDir, makeDir, writeFileAtomic } from '../../fs/atomic.js';
import { noEntry, statFollowing } from '../../fs/absent.js';
import { openNoFollow } from '../../fs/confine.js';
import {
  HISTORY_SEGMENT_MAX_BYTES,
  isReadRefusal,
  openRegularStat,
  readFileBounded,
  tooLarge,
  type ReadLabel,
} from '../../fs/bounded-read.js';

const SEGMENT_SIZE = 1000;
export const DEFAULT_HISTORY_KEEP = 10_000;

/** The first revision a segment's file name (12 digits, .jsonl) says it holds; undefined for any other name. */
function segmentNameStart(name: string): number | undefined {
  return name.length === 18 && name.endsWith('.jsonl') && isAsciiDigits(name.slice(0, 12))
    ? Number(name.slice(0, 12))
    : undefined;
}

const segmentLabel = (file: string): ReadLabel => ({
  what: `history segment ${file}`,
  fix: "baton never writes one that large; move it out of .baton/ (the revisions in it are then gone from history) and run 'baton doctor'",
});

/** A whole segment's text, bounded: every read of history goes through here or tailLines. */
export function readSegment(file: string): string {
  const { what, fix } = segmentLabel(file);
  return readFileBounded(file, HISTORY_SEGMENT_MAX_BYTES, what, fix);
}

/**
 * The history folder's segments, oldest first; none when there is no folder. One that cannot be
 * listed (a folder this user may write but not read) is not an empty history: the next commit
 * would start it again at revision 1 beside the old lines, as if the document had been edited
 * outside baton.
 */
export function segmentFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (noEntry(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw fromSystemError(error) ?? error;
  }
  return names
    .filter((name) => segmentNameStart(name) !== undefined)
    .sort()
    .map((name) => join(dir, name));
}

function segmentStart(rev: number): number {
  return Math.floor((rev - 1) / SEGMENT_SIZE) * SEGMENT_SIZE + 1;
}

export function segmentPath(dir: string, rev: number): string {
  return join(dir, `${String(segmentStart(rev)).padStart(12, '0')}.jsonl`);
}

/** The last `count` entries, oldest first, reading only file tails. */
export function tailEntries(dir: string, count: number, segments = segmentFiles(dir)): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  for (let i = segments.length - 1; i >= 0 && out.length < count; i--) {
    const lines = tailLines(segments[i] as string, count - out.length);
    out.unshift(...lines.map((line) => parseEntry(line, segments[i] as string)));
  }
  return out;
}

/** Newest-first entries, up to `limit`, for listing. */
export function recentEntries(dir: string, limit: number): HistoryEntry[] {
  return tailEntries(dir, limit).reverse();
}

/** Where a line was appended, so a commit that fails after it can take exactly that line back. */
export interface Appended {
  file: string;
  offset: number;
  bytes: number;
}

/** Appends one line, fsynced; a failed append (a full disk) leaves the segment as it was. */
export function appendEntry(dir: string, entry: HistoryEntry, keep: number): Appended {
  const file = segmentPath(dir, entry.rev);
  // UTF-8 by default: naming the encoding makes Node compile its encoding lookup (getEncodingOps,
  // 1.8 KB of its source) in every process that writes.
  const line = Buffer.from(`${JSON.stringify(entry)}\n`);
  const fd = openSegment(dir, file);
  let offset: number;
  try {
    offset = fstatSync(fd).size;
    try {
      let written = 0;
      while (written < line.length) written += writeSync(fd, line, written, line.length - written);
      fdatasyncSync(fd);
    } catch (error) {
      ftruncateSync(fd, offset);
      throw error;
    }
  } finally {
    closeSync(fd);
  }
  if (offset === 0) {
    fsyncDir(dir);
    dropOldSegments(dir, entry.rev, keep);
  }
  return { file, offset, bytes: line.length };
}

/** The segment opened to append; its folder is made only when missing (a first revision). */
function openSegment(dir: string, file: string): number {
  try {
    return openNoFollow(file, 'a');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makeDir(dir);
  return openNoFollow(file, 'a');
}

/** Whether the appended line is still the last thing in its segment. */
export function isTail(appended: Appended): boolean {
  try {
    // through lstat first (absent.ts's statFollowing says why); a segment a link made since is stat'ed
    return statFollowing(appended.file)?.size === appended.offset + appended.bytes;
  } catch {
    return false;
  }
}

/**
 * Takes back a line whose document never landed (the write failed, or the lock was lost). Only
 * while it is still the tail: a line someone appended after it is theirs, and the next writer's
 * reconcile (or the doctor) deals with what is left.
 */
export function rollbackEntry(appended: Appended): void {
  if (!isTail(appended)) return;
  if (appended.offset === 0) {
    unlinkSync(appended.file);
    return;
  }
  const fd = openNoFollow(appended.file, 'r+');
  try {
    ftruncateSync(fd, appended.offset);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes the newest line: a revision whose document never reached disk (a crashed writer). */
export function dropLastEntry(dir: string): void {
  const segments = segmentFiles(dir);
  const file = segments[segments.length - 1];
  if (!file) return;
  const text = readSegment(file);
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  const cut = text.lastIndexOf('\n', end - 1) + 1;
  if (cut === 0) {
    unlinkSync(file);
    fsyncDir(dir);
    return;
  }
  const fd = openNoFollow(file, 'r+');
  try {
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, cut)));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** All entries of the segment holding `rev`, oldest first. */
export function segmentEntries(dir: string, rev: number): HistoryEntry[] {
  const file = segmentPath(dir, rev);
  let text: string;
  try {
    text = readSegment(file);
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => parseEntry(line, file));
}

function dropOldSegments(dir: string, newestRev: number, keep: number): void {
  if (keep <= 0) return;
  const oldestKept = segmentStart(Math.max(1, newestRev - keep));
  for (const file of segmentFiles(dir)) {
    const start = Number(segmentNameStart(file.slice(file.lastIndexOf('/') + 1)));
    if (start < oldestKept) unlinkSync(file);
  }
}

const TAIL_CHUNK = 8 * 1024;

function tailLines(file: string, count: number): string[] {
  const label = segmentLabel(file);
  const { fd, stat } = openRegularStat(file, label);
  try {
    const { size } = stat;
    if (size > HISTORY_SEGMENT_MAX_BYTES) throw tooLarge(label.what, HISTORY_SEGMENT_MAX_BYTES, label.fix);
    // Every commit reads the last two lines: a few KB hold them unless a snapshot is among them
    // (then the read grows), and decoding and splitting 64 KB of earlier lines each time cost
    // the library's write loop more than its JSON.
    let chunk = TAIL_CHUNK;
    for (;;) {
      const start = Math.max(0, size - chunk);
      const buffer = Buffer.allocUnsafe(size - start);
      const read = readSync(fd, buffer, 0, buffer.length, start);
      // UTF-8 without Node's encoding lookup (toString('utf8', ...) compiles it), and decoded from
      // the buffer itself: subarray() is Node's source a process compiles too (bounded-read.ts).
      const lines = buffer
        .toString(undefined, 0, read)
        .split('\n')
        .filter((line) => line !== '');
      // The first line of a partial read may be cut; keep it only when we read from the start.
      if (lines.length > count || start === 0) return lines.slice(-count);
      chunk *= 4;
    }
  } finally {
    closeSync(fd);
  }
}

function parseEntry(line: string, file: string): HistoryEntry {
  try {
    return JSON.parse(line) as HistoryEntry;
  } catch {
    throw new BatonError(
      'corrupt',
      `history file ${file} has a line that is not JSON; run 'baton doctor --repair' to set the bad lines aside`,
    );
  }
}

/** A line without its newline is a write torn by a crash mid-append; it never committed. */
export function repairTornTail(dir: string, segments = segmentFiles(dir)): void {
  const file = segments[segments.length - 1];
  if (!file) return;
  const fd = openNoFollow(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return;
    // allocUnsafe: the byte is read into it (Buffer.alloc is one more Node function a write
    // compiles); a segment cut short since its stat reads nothing, and is then repaired as before.
    const last = Buffer.allocUnsafe(1);
    if (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a) return;
    const text = readSegment(file);
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first revision that does not follow its predecessor (a duplicate left by two writers who
 * both committed on one revision, before commits were fenced), with the line count to keep
 * before it; undefined when every revision is greater than the one before.
 */
export function revisionOrder(dir: string): { bad: number; previous: number; keep: number } | undefined {
  let previous: number | undefined;
  let keep = 0;
  for (const file of segmentFiles(dir)) {
    for (const line of splitLines(readSegment(file))) {
      const rev = (JSON.parse(line) as HistoryEntry).rev;
      if (previous !== undefined && rev <= previous) return { bad: rev, previous, keep };
      previous = rev;
      keep++;
    }
  }
  return undefined;
}

/**
 * Keeps the first `keep` lines of history and sets every later line aside: the segment cut in two
 * keeps its original as `<segment>.corrupt-<stamp>`, later segments are renamed so.
 */
export function setAsideAfter(dir: string, keep: number, stamp: string): void {
  let seen = 0;
  for (const file of segmentFiles(dir)) {
    const lines = splitLines(readSegment(file));
    if (seen + lines.length <= keep) {
      seen += lines.length;
      continue;
    }
    const kept = lines.slice(0, Math.max(0, keep - seen));
    seen += kept.length;
    renameSync(file, `${file}.corrupt-${stamp}`);
    if (kept.length > 0) writeFileAtomic(file, `${kept.join('\n')}\n`);
  }
  fsyncDir(dir);
}

/** Segments holding lines that are not history entries, and how many such lines each has. */
export function damagedSegments(dir: string): { file: string; bad: number }[] {
  return segmentFiles(dir)
    .map((file) => ({ file, bad: splitLines(readSegment(file)).filter((line) => !isEntry(line)).length }))
    .filter((segment) => segment.bad > 0);
}

/** Keeps a segment's good lines; the original file stays beside it as `<segment>.corrupt-<stamp>`. */
export function setAsideBadLines(file: string, stamp: string): void {
  const good = splitLines(readSegment(file)).filter(isEntry);
  renameSync(file, `${file}.corrupt-${stamp}`);
  if (good.length > 0) writeFileAtomic(file, `${good.join('\n')}\n`);
}

function splitLines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

function isEntry(line: string): boolean {
  try {
    const entry = JSON.parse(line) as Partial<HistoryEntry> | null;
    return typeof entry === 'object' && entry !== null && typeof entry.rev === 'number';
  } catch {
    return false;
  }
}
