import { isBatonError } from '../core/errors.js';
import { readFdBounded, STDIN_MAX_BYTES } from '../fs/bounded-read.js';
import type { CommandIo } from '../core/command-io.js';
import { writeFd } from './fd-write.js';

export type Command = (args: string[], io: CommandIo) => Promise<number>;

/** This process's command I/O; tests run the CLI as a real process instead. */
export function processIo(): CommandIo {
  return {
    out: (text) => writeFd(1, text),
    err: (text) => writeFd(2, text),
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
