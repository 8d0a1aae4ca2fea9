import type { Limits } from '../core/limits.js';
import type { Doc } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import { intFlag } from './args.js';
import type { CommandIo } from '../core/command-io.js';
import { runtimeOptions } from '../core/runtime-options.js';

/** The jq budget flags of commands that evaluate an expression (get, update). */
export function jqBudgetFrom(flags: { 'jq-steps'?: string; 'jq-timeout-ms'?: string }): Partial<Limits> {
  const steps = intFlag(flags['jq-steps'], 'jq-steps');
  const timeout = intFlag(flags['jq-timeout-ms'], 'jq-timeout-ms');
  return { ...(steps ? { jqSteps: steps } : {}), ...(timeout ? { jqTimeoutMs: timeout } : {}) };
}

/** Opens a document for a CLI command, with the environment's lock budget and value limit. */
export function openForCli(path: string, cli: CommandIo, writer?: string, limits: Partial<Limits> = {}): Doc {
  const { lockTimeoutMs, maxValueBytes } = runtimeOptions(cli.env);
  return openDoc(path, {
    cwd: cli.cwd,
    env: cli.env,
    ...(writer !== undefined ? { writer } : {}),
    lockTimeoutMs,
    ...(maxValueBytes !== undefined ? { maxValueBytes } : {}),
    limits,
  });
}

export function printNotes(cli: CommandIo, notes: string[]): void {
  for (const note of notes) cli.err(`baton: ${note}\n`);
}
