/**
 * Reads that stop at a bound. A file, a pipe or a device (`< /dev/zero`) can hold more than any
 * input baton has a use for; an unbounded read fills memory (7 GB in 8 s from /dev/zero) before
 * anything can refuse it. Past the bound the read stops and says so (`too_large`, exit 4).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { BatonError } from '../core/errors.js';

/** Standard input of a CLI command (a status line payload, a document piped in): as much as a hook payload. */
export const STDIN_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A document's file. Documents baton writes are at most maxDocumentBytes as compact JSON (16 MiB
 * by default), a few times that indented; V8 cannot hold a string past ~512 MB at all, and such a
 * read was reported as a permission problem.
 */
export const DOCUMENT_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** A file of settings or rules baton reads whole (baton.config.json, a schema, a run contract). */
export const CONFIG_FILE_MAX_BYTES = 16 * 1024 * 1024;

const CHUNK = 1024 * 1024;

/**
 * Reads `fd` to its end, or refuses once more than `maxBytes` arrived. `what` names the input
 * and `fix` what to do about it, for the one-line message.
 */
export function readFdBounded(fd: number, maxBytes: number, what: string, fix: string): string {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - size));
    const bytes = readSync(fd, buffer, 0, buffer.length, null);
    if (bytes === 0) break;
    chunks.push(buffer.subarray(0, bytes));
    size += bytes;
    if (size > maxBytes) throw tooLarge(what, maxBytes, fix);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Like readFileSync(path, 'utf8'), refusing a file larger than `maxBytes` before reading it all. */
export function readFileBounded(path: string, maxBytes: number, what: string, fix: string): string {
  const fd = openSync(path, 'r');
  try {
    // A regular file says its size: refused before a byte is read (a sparse 600 MB file costs nothing).
    if (fstatSync(fd).size > maxBytes) throw tooLarge(what, maxBytes, fix);
    return readFdBounded(fd, maxBytes, what, fix);
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

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}
