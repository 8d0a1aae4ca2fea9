import type { HarnessConfig } from '../../project/config.js';
import type { SharedDocuments } from '../../project/policy/state.js';
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
  /** On a shared store, the documents as the store has them (this machine's files may be stale). */
  documents?: SharedDocuments;
}

export type Handler = (context: HandlerContext) => Promise<HookOutcome>;
