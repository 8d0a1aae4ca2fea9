/**
 * An early, clear deny for a subagent that runs baton under another writer's name
 * (`baton set ... --as orchestrator`, `BATON_WRITER=orchestrator baton ...`): the host told the
 * hook which agent is calling. The engine refuses the same claim for owned fields inside the OS
 * sandbox (project/identity.ts); this catches the plain spellings before anything runs, in every
 * phase. Read from the command text: a spelling it misses still meets the engine's check.
 */
import type { HookInput } from '../hooks/types.js';
import type { Denial } from './evaluate.js';

export const IDENTITY_RULE = 'baton-identity';

const CLAIMS = [/\bbaton\b[^\n;&|]*?\s--as(?:=|\s+)([^\s;&|]+)/g, /\bBATON_WRITER=([^\s;&|]*)/g];

export function writerClaim(input: HookInput): Denial | undefined {
  if (input.toolKind !== 'bash' || input.agentId === '') return undefined;
  const real = new Set([input.agentId, input.sessionId].filter((name) => name !== ''));
  for (const pattern of CLAIMS) {
    for (const match of input.command.matchAll(pattern)) {
      const claimed = (match[1] ?? '').replace(/^['"]|['"]$/g, '');
      if (real.has(claimed)) continue;
      return {
        rule: IDENTITY_RULE,
        message: `✗ Blocked: this command runs baton as writer '${claimed}', but it comes from agent ${input.agentId}. Fix: drop --as and BATON_WRITER; baton records the agent that runs it.`,
      };
    }
  }
  return undefined;
}
