import { HOOK_LOCK_TIMEOUT_MS, runtimeOptions } from '../../../core/runtime-options.js';
import type { HarnessConfig } from '../../../project/config.js';
import type { SharedDocuments } from '../../../project/policy/state.js';
import type { HookInput, HookOutcome } from '../types.js';

/** What every handler gets: the normalised payload, the merged config and the project root. */
export interface HandlerContext {
  input: HookInput;
  config: HarnessConfig;
  root: string;
  /** The process's working directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** The host's name and whether it can run a rewritten shell command (the OS sandbox). */
  host: { name: string; rewritesShell: boolean };
  /** The CLI script this process runs (baton's installation), when known. */
  script?: string;
  /** On a shared store, the documents as the store has them (this machine's files may be stale). */
  documents?: SharedDocuments;
  /** On a shared store, the work board as a resident server keeps it (Fetched.board). */
  board?: { doc: Record<string, unknown> | undefined };
  /** On a shared store, why this hook could not read it (Fetched.problem): it is not asked again. */
  storeProblem?: string;
}

export type Handler = (context: HandlerContext) => Promise<HookOutcome>;

/**
 * The lock budget of a handler's own document write: BATON_LOCK_TIMEOUT_MS when set, else the
 * hooks' short default (HOOK_LOCK_TIMEOUT_MS, core/runtime-options.ts).
 */
export function hookLockTimeoutMs(env: NodeJS.ProcessEnv): number {
  return runtimeOptions(env, { lockTimeoutMs: HOOK_LOCK_TIMEOUT_MS }).lockTimeoutMs;
}
