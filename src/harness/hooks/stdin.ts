/**
 * Reads one hook payload, at most MAX_PAYLOAD_BYTES (a larger one reads as garbage: the hook
 * then exits 0 without deciding). Nothing is ever written to stdin.
 *
 * - A regular file (`baton hook X < payload.json`) is read to its end, synchronously: it cannot
 *   stall, so it needs no timeout.
 * - A pipe or socket is read until EOF, the first complete JSON value, or `timeoutMs` without
 *   one: hosts normally write the JSON and close stdin, but some never close it, and a hook that
 *   waits for EOF hangs until the host kills it.
 *
 * Why not process.stdin: creating it loads Node's net and stream machinery, ~2 ms of every hook
 * measured here (fs: ~0.3 ms). A plain fs.read on a pipe that stays empty, though, blocks a
 * thread of libuv's pool, and the process cannot exit until that read returns (exit joins the
 * pool). So on Linux a pipe is reopened through /proc/self/fd/0 with O_NONBLOCK and polled: no
 * read is ever left pending. Elsewhere, and for sockets (which cannot be reopened), a blocking
 * read is used and a host that never closes stdin keeps the process until it does.
 */
import { closeSync, constants, fstatSync, openSync, read, readSync } from 'node:fs';
import { STDIN_MAX_BYTES as MAX_PAYLOAD_BYTES } from '../../fs/bounded-read.js';

const POLL_MS = 5;

export function readPayload(timeoutMs = 1000): Promise<string> {
  const kind = stdinKind();
  if (kind === 'none') return Promise.resolve('');
  if (kind === 'file') return Promise.resolve(readFileToEnd());
  const polled = kind === 'pipe' ? nonBlockingPipe() : undefined;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (polled !== undefined) closeQuietly(polled);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, timeoutMs);
    const got = (buffer: Buffer, bytes: number): void => {
      if (bytes === 0) return finish();
      chunks.push(buffer.subarray(0, bytes));
      size += bytes;
      if (size > MAX_PAYLOAD_BYTES) return finish();
      // Only a text ending in a closing bracket can be a complete value; parse just then.
      const last = lastNonBlank(buffer, bytes);
      if ((last === 0x7d || last === 0x5d) && isCompleteJson(Buffer.concat(chunks).toString('utf8'))) return finish();
      next();
    };
    const next = (): void => {
      const buffer = Buffer.allocUnsafe(65536);
      if (polled !== undefined) {
        let bytes: number;
        try {
          bytes = readSync(polled, buffer, 0, buffer.length, null);
        } catch (error) {
          return (error as NodeJS.ErrnoException).code === 'EAGAIN'
            ? void setTimeout(() => settled || next(), POLL_MS)
            : finish();
        }
        return got(buffer, bytes);
      }
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (settled) return;
        if (error) return error.code === 'EAGAIN' ? void setTimeout(next, POLL_MS) : finish();
        got(buffer, bytes);
      });
    };
    next();
  });
}

/** A terminal (a person typing), /dev/null or a folder: no payload. fstat, not node:tty (1.6 ms). */
function stdinKind(): 'none' | 'file' | 'pipe' | 'socket' {
  try {
    const stat = fstatSync(0);
    if (stat.isFile()) return 'file';
    if (stat.isFIFO()) return 'pipe';
    return stat.isSocket() ? 'socket' : 'none';
  } catch {
    return 'none';
  }
}

/** A second, non-blocking descriptor of the stdin pipe (Linux); undefined where that cannot be had. */
function nonBlockingPipe(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}

function readFileToEnd(): string {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size <= MAX_PAYLOAD_BYTES) {
    const buffer = Buffer.allocUnsafe(Math.min(1024 * 1024, MAX_PAYLOAD_BYTES + 1 - size));
    let bytes: number;
    try {
      bytes = readSync(0, buffer, 0, buffer.length, null);
    } catch {
      break;
    }
    if (bytes === 0) break;
    chunks.push(buffer.subarray(0, bytes));
    size += bytes;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // nothing left to release
  }
}

function lastNonBlank(buffer: Buffer, length: number): number | undefined {
  for (let i = length - 1; i >= 0; i--) {
    const byte = buffer[i] as number;
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte;
  }
  return undefined;
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The payload as an object; anything else (garbage, arrays, empty, past MAX_PAYLOAD_BYTES) reads
 * as `{}`. The bound is checked here, on the text, because a read that stops past it may still
 * hold the whole value: its last chunk can carry both the bound and the closing bracket.
 */
export function parsePayload(text: string): { data: Record<string, unknown>; garbage: boolean } {
  if (text.trim() === '' || Buffer.byteLength(text, 'utf8') > MAX_PAYLOAD_BYTES) return { data: {}, garbage: true };
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { data: value as Record<string, unknown>, garbage: false };
  } catch {
    // falls through: garbage reads as {}
  }
  return { data: {}, garbage: true };
}
