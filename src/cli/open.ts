import type { Limits } from '../core/limits.js';
import type { Doc } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import { intFlag, type Parsed } from './args.js';
import type { CommandIo } from '../core/command-io.js';

/** The jq budget flags of commands that evaluate an expression (get, update). */
export function jqBudgetFrom(flags: Parsed['flags']): Partial<Limits> {
  const steps = intFlag(flags['jq-steps'], 'jq-steps');
  const timeout = intFlag(flags['jq-timeout-ms'], 'jq-timeout-ms');
  return { ...(steps ? { jqSteps: steps } : {}), ...(timeout ? { jqTimeoutMs: timeout } : {}) };
}

/** Opens a document for a CLI command; BATON_LOCK_TIMEOUT_MS sets the lock wait budget. */
export function openForCli(path: string, cli: CommandIo, writer?: string, limits: Partial<Limits> = {}): Doc {
  const timeout = Number(cli.env.BATON_LOCK_TIMEOUT_MS);
  const maxBytes = Number(cli.env.BATON_MAX_VALUE_BYTES);
  return openDoc(path, {
    cwd: cli.cwd,
    env: cli.env,
    ...(writer !== undefined ? { writer } : {}),
    ...(Number.isFinite(timeout) && timeout > 0 ? { lockTimeoutMs: timeout } : {}),
    ...(Number.isFinite(maxBytes) && maxBytes > 0 ? { maxValueBytes: maxBytes } : {}),
    limits,
  });
}

export function printNotes(cli: CommandIo, notes: string[]): void {
  for (const note of notes) cli.err(`baton: ${note}\n`);
}
