/**
 * Stop: a non-owner whose turn ran goal.sh start/resume claims the goal; the owner is nudged
 * when the turn changed things without recording them, and told about lint findings only when
 * the finding set changed since the last report (`.lint-last`).
 */
import type { HandlerContext } from '../../harness/hooks/handlers/handler-context.js';
import type { HookOutcome } from '../../harness/hooks/types.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { toolNames, type ToolNames } from '../goal-paths.js';
import { writePointer } from '../pointer.js';
import { contextBlock, lintLines } from './context-block.js';
import { goalInvocation, ranGoal, isWriteCommand } from './commands.js';
import type { GoalPayload } from './input.js';
import type { Scope } from './scope.js';
import { parseRecords, tailLines, turnCalls, type ToolCall } from './transcript.js';
import { isFile } from '../../fs/stat.js';
import { readGoalText } from '../goal-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';

/** Names the command the turn really ran (`goal.sh resume`, `baton goal start`), not always goal.sh. */
const claimMode = (invocation: string) =>
  `This session took the goal over with ${invocation}. Reconcile any crash or lost-agent lines below before other work.`;
const EDIT_TOOLS = new Set(['Edit', 'Write', 'NotebookEdit']);
const TOUCH_VERBS = ['start', 'resume', 'touch', 'now', 'land'];

/** Paths in ROOT itself or below `ROOT/` are bookkeeping; a bare prefix would also take `ROOT-old/`. */
function isBookkeeping(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`) || path.endsWith('/.claude/status.md');
}

function classifyTurn(calls: ToolCall[], scope: Scope): { substantive: boolean; touched: boolean } {
  let substantive = false;
  let touched = false;
  for (const call of calls) {
    if ((EDIT_TOOLS.has(call.name) || call.name === 'Agent') && !isBookkeeping(call.filePath, scope.root))
      substantive = true;
    if (EDIT_TOOLS.has(call.name) && call.filePath === scope.paths.state) touched = true;
    if (call.name === 'Bash') {
      if (isWriteCommand(call.command)) substantive = true;
      if (ranGoal(call.command, TOUCH_VERBS)) touched = true;
    }
  }
  return { substantive, touched };
}

/** The dedupe key of a finding: whole line, section-stale per section, else the code. */
export function findingKey(line: string): string {
  if (line.startsWith('lint: now-finished: ') || line.startsWith('lint: pending-but-done: ')) return line;
  const stale = /^(lint: section-stale: ## .+?) unchanged /.exec(line);
  if (stale) return stale[1] as string;
  return /^lint: [^:]+/.exec(line)?.[0] ?? line;
}

function changedFindings(scope: Scope, env: NodeJS.ProcessEnv, names: ToolNames): string[] {
  const findings = lintLines(scope, { who: '', mode: '', withHead: false, transcriptPath: '', env, names });
  const keys = findings.map(findingKey).join('\n');
  let last = '';
  try {
    last = readGoalText(scope.paths.lintLast).replace(/\n+$/, '');
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    // no earlier report
  }
  if (keys === last) return [];
  writeFileAtomic(scope.paths.lintLast, `${keys}\n`, { durable: false });
  return findings;
}

export async function stop(scope: Scope, input: GoalPayload, { env }: HandlerContext): Promise<HookOutcome> {
  const silent: HookOutcome = { log: [] };
  if (input.stopHookActive || !isFile(input.transcriptPath)) return silent;
  const calls = turnCalls(parseRecords(tailLines(input.transcriptPath)));
  const names = toolNames(env);
  if (!scope.owner) {
    const claim =
      input.sessionId === ''
        ? undefined
        : calls
            .filter((c) => c.name === 'Bash')
            .map((c) => goalInvocation(c.command, ['start', 'resume']))
            .find(Boolean);
    if (!claim) return silent;
    writePointer(scope.root, { ...scope.pointer, session: input.sessionId });
    const block = contextBlock(scope, {
      who: 'the Stop hook: this session now owns the goal',
      mode: claimMode(claim),
      withHead: false,
      transcriptPath: input.transcriptPath,
      env,
      names,
    });
    return { context: block, log: [] };
  }
  const { substantive, touched } = classifyTurn(calls, scope);
  if (!substantive && !touched) return silent;
  const lines: string[] = [];
  if (substantive && !touched) {
    lines.push(
      'Orchestrate state check: this turn changed things (edits, agents or git/gh writes) without updating the state file.',
      `Record it in ${scope.paths.state} (${names.goal} now or land for a launch or return, a small Edit for Next and anything decided), then run ${names.goal} touch.${names.compat ? ` goal.sh is ${names.goalCommand}.` : ''}`,
    );
  }
  const findings = changedFindings(scope, env, names);
  if (findings.length > 0) {
    lines.push(
      'Orchestrate state lint:',
      ...findings,
      `Read the head and the sections named, fix what is wrong with small Edits, then run ${names.goalCommand} touch.`,
    );
  }
  if (lines.length === 0) return silent;
  lines.push('Do not repeat your previous reply; end the turn with at most one line.');
  return { context: `${lines.join('\n')}\n`, log: [] };
}
