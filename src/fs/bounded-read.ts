/**
 * Reads that stop at a bound. A file, a pipe or a device (`< /dev/zero`) can hold more than any
 * input baton has a use for; an unbounded read fills memory (7 GB in 8 s from /dev/zero) before
 * anything can refuse it. Past the bound the read stops and says so (`too_large`, exit 4). A file
 * baton keeps for itself must be a regular file: a FIFO planted at its name would block the open
 * for ever and a device (a link to /dev/zero) never ends, so either is refused (`unsafe_path`,
 * exit 4) before a byte is read. Every bound is listed in docs/guarantees.md.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { BatonError, isBatonError } from '../core/errors.js';

/** Standard input of a CLI command (a status line payload, a document piped in): as much as a hook payload. */
export const STDIN_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A document's file. Documents baton writes are at most maxDocumentBytes as compact JSON (16 MiB
 * by default), a few times that indented; V8 cannot hold a string past ~512 MB at all, and such a
 * read was reported as a permission problem.
 */
export const DOCUMENT_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** A file of settings or rules baton reads whole (baton.config.json, a schema, a run contract, a host's settings). */
export const CONFIG_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A history segment: 1,000 revisions, each a patch or a snapshot of a document of at most
 * maxDocumentBytes. As large as a document's file, and for the same reason (V8's string limit).
 */
export const HISTORY_SEGMENT_MAX_BYTES = 256 * 1024 * 1024;

/** A document's `.meta.json`: its schema's name or path. */
export const METADATA_MAX_BYTES = 64 * 1024;

/** A lock record: five short lines (pid, host, time, token, process start). */
export const LOCK_RECORD_MAX_BYTES = 4 * 1024;

/**
 * A file of the goal tools (state.md, log.md, the pointer, the lint sidecars) and of the
 * harness's own state (the wave file, a scratchpad, the prompt audit log, a status line cache),
 * each a few KB in use.
 */
export const STATE_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** A mirror file (a field's value as text), the project's identity file, a cached probe answer. */
export const SMALL_FILE_MAX_BYTES = 1024 * 1024;

/**
 * How far back a hook reads a transcript for its last lines. Transcripts reach hundreds of MB and
 * are read from the end; 3,000 lines past this many bytes are not lines a turn wrote.
 */
export const TRANSCRIPT_TAIL_MAX_BYTES = 64 * 1024 * 1024;

/** A whole transcript read by a command (`baton goal transcript-text`). */
export const TRANSCRIPT_FILE_MAX_BYTES = 256 * 1024 * 1024;

const CHUNK = 1024 * 1024;
/** A file that grew past its stat (or a pipe) is read on in chunks growing from this size with what was read. */
const MIN_CHUNK = 64 * 1024;
const EOF_PROBE = 512;
const PROC_CHUNK = 4096;

/** What a read names in its one-line error: the input, and what to do about it. */
export interface ReadLabel {
  what: string;
  fix: string;
}

/**
 * Reads `fd` to its end, or refuses once more than `maxBytes` arrived. `what` names the input
 * and `fix` what to do about it, for the one-line message.
 */
export function readFdBounded(fd: number, maxBytes: number, what: string, fix: string): string {
  return text(readFdBytes(fd, maxBytes, { what, fix }));
}

/**
 * What a read gave: the first `length` bytes of `buffer`. A regular file is read in one call into
 * a buffer a byte longer than its size; cutting that byte off with subarray() (and its
 * adjustOffset: 0.7 KB of Node's source a process compiles on first use, ~0.2 M instructions of a
 * `get`) is left to the readers that want bytes.
 */
interface Read {
  buffer: Buffer;
  length: number;
}

/** UTF-8 text, as toString('utf8') decodes it, without Node's encoding lookup (getEncodingOps, 1.8 KB to compile). */
const text = ({ buffer, length }: Read): string => buffer.toString(undefined, 0, length);

function readFdBytes(fd: number, maxBytes: number, label: ReadLabel, stat: Stats = fstatSync(fd)): Read {
  const chunks: Buffer[] = [];
  const lengths: number[] = [];
  let size = 0;
  // A regular file is read into a buffer of its size (+1 to see the end in the same call), not a
  // fresh 1 MiB one per read: a resident server reading a few small files per hook call would
  // otherwise allocate megabytes per call, and spend its time collecting them.
  // A file that says size 0 is empty or a /proc file (every write reads /proc/<pid>/stat for its
  // lock): one page holds those baton reads, so they come in one chunk, not a byte and then the
  // rest joined by Buffer.concat, a Node function a process compiles on first use.
  let want = stat.isFile() ? (stat.size > 0 ? stat.size + 1 : PROC_CHUNK) : CHUNK;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, want, maxBytes + 1 - size)));
    const bytes = readSync(fd, buffer, 0, buffer.length, null);
    if (bytes === 0) break;
    // A short read usually means the end: the next read only has to see it.
    want = bytes < buffer.length ? EOF_PROBE : Math.max(MIN_CHUNK, size + bytes);
    chunks.push(buffer);
    lengths.push(bytes);
    size += bytes;
    if (size > maxBytes) throw tooLarge(label.what, maxBytes, label.fix);
    // A regular file that gave exactly the size its stat said, short of the extra byte asked for,
    // is at its end: the probe would only read nothing. (A /proc file says size 0, and a file that
    // changed since its stat gives another count: both are read to a read of nothing.)
    if (bytes < buffer.length && stat.isFile() && stat.size > 0 && size === stat.size) break;
  }
  if (chunks.length === 1) return { buffer: chunks[0] as Buffer, length: size };
  return { buffer: Buffer.concat(chunks.map((chunk, i) => chunk.subarray(0, lengths[i]))), length: size };
}

/**
 * Opens a file baton keeps for itself, for reading: never blocking on a FIFO, and refusing
 * anything that is not a regular file or a folder (a folder still fails as EISDIR on its first
 * read, as readFileSync did). The caller closes the descriptor.
 */
export function openRegular(path: string, label: ReadLabel): number {
  return openRegularStat(path, label).fd;
}

/**
 * openRegular with the descriptor's stat, which a read goes on with: every commit reads a handful
 * of small files (the lock record, the document, twice to fence), and a stat per step of one read
 * was a third of the write path's system calls.
 */
export function openRegularStat(path: string, label: ReadLabel): { fd: number; stat: Stats } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const stat = fstatSync(fd);
  if (!stat.isFile() && !stat.isDirectory()) {
    closeSync(fd);
    throw new BatonError(
      'unsafe_path',
      `${label.what} (${path}) is a ${stat.isFIFO() ? 'FIFO' : stat.isSocket() ? 'socket' : 'device'}, not a regular file, so baton does not read it; ${label.fix}`,
    );
  }
  return { fd, stat };
}

/**
 * Like readFileSync(path, 'utf8'), refusing a file larger than `maxBytes` before reading it all.
 * `stream: true` is for a name the caller gave (an export to import, `/dev/stdin`, `<(...)`):
 * a pipe or a device is then read, up to the bound.
 */
export function readFileBounded(
  path: string,
  maxBytes: number,
  what: string,
  fix: string,
  options: { stream?: boolean } = {},
): string {
  return text(readBounded(path, maxBytes, { what, fix }, options));
}

/** readFileBounded's bytes, for a file read as latin1 or binary. */
export function readBytesBounded(
  path: string,
  maxBytes: number,
  label: ReadLabel,
  options: { stream?: boolean } = {},
): Buffer {
  const { buffer, length } = readBounded(path, maxBytes, label, options);
  return length === buffer.length ? buffer : buffer.subarray(0, length);
}

function readBounded(path: string, maxBytes: number, label: ReadLabel, options: { stream?: boolean }): Read {
  const opened = options.stream ? { fd: openSync(path, 'r'), stat: undefined } : openRegularStat(path, label);
  const { fd } = opened;
  try {
    const stat = opened.stat ?? fstatSync(fd);
    // A regular file says its size: refused before a byte is read (a sparse 600 MB file costs nothing).
    if (stat.size > maxBytes) throw tooLarge(label.what, maxBytes, label.fix);
    return readFdBytes(fd, maxBytes, label, stat);
  } finally {
    closeSync(fd);
  }
}

export function tooLarge(what: string, maxBytes: number, fix: string): BatonError {
  return new BatonError(
    'too_large',
    `${what} is larger than ${formatBytes(maxBytes)}, the most baton reads of it; ${fix}`,
  );
}

/** Whether `error` is this module's refusal (too large, or not a regular file), which a caller that
 * treats an unreadable file as absent must still pass on. */
export function isReadRefusal(error: unknown): error is BatonError {
  // By brand, not instanceof: a lazily loaded bundle of the CLI carries its own copy of BatonError.
  return isBatonError(error, 'too_large') || isBatonError(error, 'unsafe_path');
}

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}
