/**
 * The small files every gated hook decision reads (baton.config.json, the phase mirror, the
 * configured documents), kept in memory by a resident process (`baton serve`) so a decision opens
 * no file and parses nothing while they stay as they were. Off by default: a CLI or hook process
 * reads each file once anyway, and reads as readFileBounded does.
 *
 * The staleness rule (docs/serve.md): a kept copy is used only when one stat of the path, taken by
 * the decision itself, shows the same file (device, inode, size, mtime and ctime in nanoseconds)
 * as the one read, and that file's ctime was already older than RACY_NS when it was read. The
 * second condition closes the gap a stat alone leaves: the kernel stamps times from a coarse clock
 * (a tick of 1-10 ms), so a same-size rewrite in place within the tick of the read would keep every
 * field; a file changed less than RACY_NS before its read is read again on every use until it has
 * settled (as git treats a "racily clean" index entry). ctime cannot be set by a user, and every
 * write, rename or chmod moves it. Nothing here depends on a watch: a file-change event arrives
 * asynchronously, after the writer has returned, so a decision could be judged before it. A stat
 * that fails, or shows anything but a regular file within its bound, falls back to the plain read,
 * which refuses as it always did.
 */
import { closeSync, fstatSync, statSync, type BigIntStats } from 'node:fs';
import { openRegular, readFdBounded, readFileBounded, tooLarge } from './bounded-read.js';

/** A file changed this recently (ns) before it was read is not kept: the coarse file clock is far finer. */
export const RACY_NS = 100_000_000n;
/** Paths kept at once: a Cursor payload names its own workspace, so the set of paths is not the server's to choose. */
const MAX_ENTRIES = 256;
/** Larger files are read on every use: memory stays bounded whatever the documents hold. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024;

interface Entry {
  signature: string;
  /** What each parser made of the text, by parser: parsed once per change of the file. */
  parsed: Map<(text: string) => unknown, unknown>;
  text: string;
}

interface Kept {
  entries: Map<string, Entry>;
  hits: number;
  reads: number;
}

/**
 * On the global object, not in a module variable: each CLI command and lazily loaded part is its
 * own bundle with its own copy of this module (scripts/build.mjs), and the server turns keeping on
 * in one of them while the hook handlers read in another.
 */
const KEPT = Symbol.for('baton.keptReads');
const store = globalThis as { [KEPT]?: Kept };

/** Turns keeping on (a resident server) or off (and forgets everything kept). */
export function keepReads(on: boolean): void {
  store[KEPT] = on ? { entries: new Map(), hits: 0, reads: 0 } : undefined;
}

/** Whether this process keeps reads (a resident server). */
export function keepingReads(): boolean {
  return store[KEPT] !== undefined;
}

/** How many reads were answered from memory and how many opened the file, since keeping began. */
export function keptReadCounts(): { hits: number; reads: number; entries: number } {
  const kept = store[KEPT];
  return { hits: kept?.hits ?? 0, reads: kept?.reads ?? 0, entries: kept?.entries.size ?? 0 };
}

/**
 * `parse(readFileBounded(path, ...))`, from memory while the file is unchanged (see above). While
 * reads are kept the value is shared between calls, so it is made read-only throughout; `parse`
 * must be one function for the process (a module's), not a closure per call. An error from the
 * read or from `parse` is thrown as is and nothing is kept.
 */
export function readKept<T>(path: string, maxBytes: number, what: string, fix: string, parse: (text: string) => T): T {
  const state = store[KEPT];
  if (!state) return parse(readFileBounded(path, maxBytes, what, fix));
  const kept = state.entries;
  let seen: BigIntStats | undefined;
  try {
    seen = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    seen = undefined;
  }
  if (!seen || !seen.isFile() || seen.size > BigInt(Math.min(maxBytes, MAX_KEPT_BYTES))) {
    kept.delete(path);
    return parse(readFileBounded(path, maxBytes, what, fix));
  }
  const entry = kept.get(path);
  if (entry && entry.signature === signature(seen)) {
    state.hits++;
    if (entry.parsed.has(parse)) return entry.parsed.get(parse) as T;
    const value = deepFreeze(parse(entry.text));
    entry.parsed.set(parse, value);
    return value;
  }
  state.reads++;
  kept.delete(path);
  const started = BigInt(Date.now()) * 1_000_000n;
  const fd = openRegular(path, { what, fix });
  let text: string;
  let read: BigIntStats;
  try {
    read = fstatSync(fd, { bigint: true });
    if (read.size > BigInt(maxBytes)) throw tooLarge(what, maxBytes, fix);
    text = readFdBounded(fd, maxBytes, what, fix);
  } finally {
    closeSync(fd);
  }
  const value = deepFreeze(parse(text));
  // The signature is the opened file's, taken before its bytes: a write during the read moves
  // ctime, so the next use reads again. A file that had not settled is not kept at all.
  if (read.isFile() && read.ctimeNs < started - RACY_NS && Buffer.byteLength(text) === Number(read.size)) {
    if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value as string);
    kept.set(path, { signature: signature(read), parsed: new Map([[parse, value]]), text });
  }
  return value;
}

function signature(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** A parsed value made read-only throughout, so one kept copy can be handed to every decision. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
