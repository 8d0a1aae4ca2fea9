import { homedir } from 'node:os';
import { evaluatePolicy } from '../policy/evaluate.js';
import { writerClaim } from '../policy/writer-claim.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './handler-context.js';

/**
 * PreToolUse: the configured policy rules (edit gate, protected files, bash firewall) and baton's
 * own state. Only a shell command loads the shell parser and analysis.
 */
export async function preTool({ input, config, root, env, documents }: HandlerContext): Promise<HookOutcome> {
  const claim = writerClaim(input);
  if (claim) return { deny: claim, log: [] };
  let analysis;
  if (input.toolKind === 'bash' && input.command.trim() !== '') {
    const { analyzeShell, rawNames } = await import('../shell/analyze.js');
    const cwd = input.cwd || root;
    try {
      analysis = analyzeShell(input.command, cwd, env.HOME || homedir());
    } catch (error) {
      // A command the analysis cannot finish is one baton cannot tell about: fail closed on it.
      const construct = `a command baton could not analyse (${error instanceof Error ? error.message : String(error)})`;
      analysis = { writes: [], opaque: [{ construct }], names: rawNames(input.command), cwds: [cwd] };
    }
  }
  const denial = evaluatePolicy(input, config, root, analysis, documents);
  return denial ? { deny: denial, log: [] } : { log: [] };
}
