import type { HookInput, HookOutcome, HostAdapter, Rendered } from '../types.js';
import { normalize, type ToolTable } from './normalize.js';

/**
 * Claude Code. A deny is exit 0 with `hookSpecificOutput.permissionDecision: "deny"` rather than
 * exit 2: the JSON form carries the reason to the model the same way, and it cannot be confused
 * with a crashed hook. The reason also goes to stderr (the debug log). SessionStart context is
 * plain stdout; a Stop block is `{"decision": "block", "reason"}`.
 */
export const CLAUDE_TOOLS: ToolTable = {
  tools: {
    Edit: { name: 'Edit', kind: 'edit' },
    Write: { name: 'Write', kind: 'edit' },
    MultiEdit: { name: 'MultiEdit', kind: 'edit' },
    NotebookEdit: { name: 'NotebookEdit', kind: 'edit' },
    Bash: { name: 'Bash', kind: 'bash' },
  },
};

export function renderClaudeLike(input: HookInput, outcome: HookOutcome): Rendered {
  const stderr = [...outcome.log, ...(outcome.deny ? [outcome.deny.message] : [])].map((line) => `${line}\n`).join('');
  const json: Record<string, unknown> = {};
  if (outcome.deny) {
    json.hookSpecificOutput = {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]`,
    };
  }
  if (outcome.block) Object.assign(json, { decision: 'block', reason: outcome.block.reason });
  if (outcome.notice) json.systemMessage = outcome.notice;
  let stdout = Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '';
  if (outcome.context !== undefined) {
    stdout = stdout
      ? `${JSON.stringify({ ...json, hookSpecificOutput: { hookEventName: input.event, additionalContext: outcome.context } })}\n`
      : `${outcome.context}\n`;
  }
  return { stdout, stderr, code: 0 };
}

export const claude: HostAdapter = {
  name: 'claude',
  event: (hostEvent) => hostEvent,
  input: (hostEvent, raw) => normalize(hostEvent, hostEvent, raw, CLAUDE_TOOLS),
  render: renderClaudeLike,
};
