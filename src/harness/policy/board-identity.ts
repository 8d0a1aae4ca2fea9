/**
 * Who an agent is on the work board. The host names every subagent's tool call in its payload
 * (`agent_id`; Claude Code 2.1.328 and Codex 0.171, measured) and the session's own agent by
 * leaving it out, but nothing of it reaches the shell the call runs: the environment of a
 * subagent's Bash call is the session's. So the hook binds it: a shell call that runs `baton work`
 * is rewritten to export the caller's board name and session first (BATON_AGENT, BATON_SESSION),
 * which `baton work` uses for `--as` and refuses any other name against. The plain spellings that
 * would claim another name (`--as other`, `BATON_AGENT=other`) are denied here before anything runs.
 */
import type { HookInput } from '../hooks/types.js';
import type { Denial } from './evaluate.js';
import { IDENTITY_RULE } from './writer-claim.js';

/** The board name of the session's own agent, which the host gives no id. */
export const MAIN_AGENT = 'main';

/** The name the work board knows the calling agent by: the host's agent id, `main` for the session's agent. */
export function boardName(input: Pick<HookInput, 'agentId'>): string {
  return input.agentId || MAIN_AGENT;
}

const WORK = /\bbaton\b[^\n;&|]*?\swork\b/;
const AS = /\bbaton\b[^\n;&|]*?\swork\b[^\n;&|]*?\s--as(?:=|\s+)([^\s;&|]+)/g;
const SETS = /\b(BATON_AGENT|BATON_SESSION)=/;

/** Whether a shell command runs `baton work` (as its text says: a script that does is not seen). */
export function runsBoard(command: string): boolean {
  return WORK.test(command);
}

/** A command that would act on the board under another agent's name, denied with the fix. */
export function boardIdentityDenial(input: HookInput): Denial | undefined {
  if (input.toolKind !== 'bash') return undefined;
  const name = boardName(input);
  const sets = SETS.exec(input.command);
  if (sets)
    return {
      rule: IDENTITY_RULE,
      message: `✗ Blocked: this command sets ${sets[1]} itself, but baton sets it to the agent that runs the command (${name}). Fix: drop ${sets[1]}=...; baton work records the calling agent.`,
    };
  for (const match of input.command.matchAll(AS)) {
    const claimed = (match[1] ?? '').replace(/^['"]|['"]$/g, '');
    if (claimed === name) continue;
    return {
      rule: IDENTITY_RULE,
      message: `✗ Blocked: this command runs baton work as '${claimed}', but it comes from agent ${name}. Fix: drop --as; baton work records the agent that runs it.`,
    };
  }
  return undefined;
}

/** `command`, run with the caller's board name and session exported (Exported variables end with the call.) */
export function bindAgent(command: string, input: Pick<HookInput, 'agentId' | 'sessionId'>): string {
  const session = input.sessionId ? ` BATON_SESSION=${quote(input.sessionId)}` : '';
  return `export BATON_AGENT=${quote(boardName(input))}${session}; ${command}`;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
