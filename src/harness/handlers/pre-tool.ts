import { evaluatePolicy } from '../policy/evaluate.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './context.js';

/** PreToolUse: the configured policy rules (edit gate, protected files, bash firewall). */
export async function preTool({ input, config, root }: HandlerContext): Promise<HookOutcome> {
  const denial = evaluatePolicy(input, config, root);
  return denial ? { deny: denial, log: [] } : { log: [] };
}
