import type { HarnessConfig } from '../../project/config.js';
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
}

export type Handler = (context: HandlerContext) => Promise<HookOutcome>;
