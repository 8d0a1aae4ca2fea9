/** The pinned Claude Code CLI that the end-to-end tests run, installed on demand (./pinned-cli.ts). */
import { fileURLToPath } from 'node:url';
import { CLIS, pinnedCli } from './pinned-cli.js';

/** The path of the `claude` binary, installed first if it is not there yet. */
export function claudeCode(): string {
  return pinnedCli(CLIS['claude-code']);
}

// `node --import tsx test/e2e/claude-code.ts`: install it now and print its path.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(claudeCode());
