import { writeSync } from 'node:fs';
import { isBatonError } from '../core/errors.js';
import { readFdBounded, STDIN_MAX_BYTES } from '../fs/bounded-read.js';
import type { CommandIo } from '../core/command-io.js';

export type Command = (args: string[], io: CommandIo) => Promise<number>;

/** This process's command I/O; tests run the CLI as a real process instead. */
export function processIo(): CommandIo {
  return {
    out: (text) => write(1, text),
    err: (text) => write(2, text),
    readStdin: (maxBytes = STDIN_MAX_BYTES) => {
      try {
        return readFdBounded(0, maxBytes, 'standard input', 'pipe in less, or pass a file');
      } catch (error) {
        if (isBatonError(error, 'too_large')) throw error;
        return '';
      }
    },
    env: process.env,
    cwd: process.cwd(),
    script: process.argv[1],
  };
}

/**
 * Writes straight to the file descriptor: creating process.stdout's stream costs a short-lived
 * process ~1 ms. A pipe the host left non-blocking can refuse a large write (EAGAIN); the
 * stream then takes over, and it flushes before the process exits. A reader that went away
 * (`baton history x | head -1`) is not an error: the rest of the output has nowhere to go.
 */
function write(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw error;
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
  }
}
