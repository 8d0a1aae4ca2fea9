import { BatonError, isBatonError } from '../core/errors.js';
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
    // Asked when a command reads it, inside run-cli's error boundary and a hook's fail-closed one.
    get cwd() {
      return workingFolder();
    },
    script: process.argv[1],
  };
}

/**
 * process.cwd(), or a one-line refusal. A folder removed under the process (an agent removed the
 * worktree it worked in) makes Node throw ENOENT, uv_cwd: asked while this I/O was made, before
 * any boundary, every command crashed with a stack and exit 1, and a PreToolUse hook with it,
 * which Claude Code does not count as a denial: the tool call went ahead unjudged.
 */
function workingFolder(): string {
  try {
    return process.cwd();
  } catch (error) {
    throw new BatonError(
      'io',
      `the working folder was removed (${(error as Error).message}); cd to a folder that exists`,
      { cause: error },
    );
  }
}
