import { closeSync, fstatSync, openSync, read, writeSync } from 'node:fs';

/**
 * Reads one hook payload. Hosts normally write the JSON and close stdin, but some never close it,
 * and a hook that waits for EOF then hangs until the host kills it. So reading stops at EOF, at
 * the first complete JSON value, or after `timeoutMs` without one, whichever comes first.
 *
 * Why fs.read on fd 0 and not process.stdin: creating process.stdin loads Node's net and stream
 * machinery, ~4.5 ms of every hook; a plain read costs nothing extra. The catch: a read still
 * pending in libuv's thread pool when the timeout fires keeps the process from exiting. On Linux
 * the timeout therefore writes one byte into our own stdin pipe (through /proc/self/fd/0), which
 * completes that read; elsewhere the process lingers until the host closes the pipe.
 */
export function readPayload(timeoutMs = 1000): Promise<string> {
  if (isTerminalOrNull()) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (timedOut) unblockPendingRead();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    const next = (): void => {
      const buffer = Buffer.allocUnsafe(65536);
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (settled) return;
        if (error) return (error as NodeJS.ErrnoException).code === 'EAGAIN' ? void setTimeout(next, 5) : finish(false);
        if (bytes === 0) return finish(false);
        chunks.push(buffer.subarray(0, bytes));
        // Only a text ending in a closing bracket can be a complete value; parse just then.
        const last = lastNonBlank(buffer, bytes);
        if ((last === 0x7d || last === 0x5d) && isCompleteJson(Buffer.concat(chunks).toString('utf8'))) return finish(false);
        next();
      });
    };
    next();
  });
}

/** A terminal (a person typing) or /dev/null: no payload to wait for. fstat, not node:tty (1.6 ms). */
function isTerminalOrNull(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true;
  }
}

function unblockPendingRead(): void {
  try {
    const fd = openSync('/proc/self/fd/0', 'w');
    writeSync(fd, '\n');
    closeSync(fd);
  } catch {
    // not Linux, or stdin is not a pipe we may write: the host's own timeout ends the process
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

/** The payload as an object; anything else (garbage, arrays, empty) reads as `{}`. */
export function parsePayload(text: string): { data: Record<string, unknown>; garbage: boolean } {
  if (text.trim() === '') return { data: {}, garbage: true };
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return { data: value as Record<string, unknown>, garbage: false };
  } catch {
    // falls through: garbage reads as {}
  }
  return { data: {}, garbage: true };
}
