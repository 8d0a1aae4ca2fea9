import type { Cli } from '../../cli/context.js';
import { goalRoot } from '../paths.js';
import { parseHookInput } from './input.js';
import { resolveScope } from './scope.js';

/**
 * Entry of the goal hooks once a pointer exists. Every failure is swallowed: a hook must exit 0
 * and write nothing to stderr (5.0), and a crashing hook would disable itself in the host.
 */
export async function runGoalHook(event: string, stdin: string, cli: Cli): Promise<void> {
  const root = goalRoot(cli.env);
  if (root === undefined) return;
  const input = parseHookInput(stdin);
  const scope = resolveScope(root, input, cli.cwd);
  if (!scope) return;
  if (event === 'SessionStart') await (await import('./session-start.js')).sessionStart(scope, input, cli);
  else if (event === 'Stop') await (await import('./stop.js')).stop(scope, input, cli);
  else if (event === 'SessionEnd') await (await import('./session-end.js')).sessionEnd(scope, input, cli);
}
