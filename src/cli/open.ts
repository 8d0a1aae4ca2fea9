import type { Doc } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import type { Cli } from './context.js';

/** Opens a document for a CLI command; BATON_LOCK_TIMEOUT_MS sets the lock wait budget. */
export function openForCli(path: string, cli: Cli, writer?: string): Doc {
  const timeout = Number(cli.env.BATON_LOCK_TIMEOUT_MS);
  const maxBytes = Number(cli.env.BATON_MAX_VALUE_BYTES);
  return openDoc(path, {
    cwd: cli.cwd,
    env: cli.env,
    ...(writer !== undefined ? { writer } : {}),
    ...(Number.isFinite(timeout) && timeout > 0 ? { lockTimeoutMs: timeout } : {}),
    ...(Number.isFinite(maxBytes) && maxBytes > 0 ? { maxValueBytes: maxBytes } : {}),
  });
}

export function printNotes(cli: Cli, notes: string[]): void {
  for (const note of notes) cli.err(`baton: ${note}\n`);
}
