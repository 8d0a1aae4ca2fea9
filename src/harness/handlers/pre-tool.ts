import { homedir } from 'node:os';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './context.js';

/**
 * PreToolUse: the configured policy rules (edit gate, protected files, bash firewall) and baton's
 * own state. Only a shell command loads the shell parser and analysis.
 */
export async function preTool({ input, config, root, env }: HandlerContext): Promise<HookOutcome> {
  let analysis;
  if (input.toolKind === 'bash' && input.command.trim() !== '') {
    const { analyzeShell } = await import('../shell/analyze.js');
    analysis = analyzeShell(input.command, input.cwd || root, env.HOME || homedir());
  }
  const denial = evaluatePolicy(input, config, root, analysis);
  return denial ? { deny: denial, log: [] } : { log: [] };
}
