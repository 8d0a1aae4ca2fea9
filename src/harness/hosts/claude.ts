/**
 * Claude Code. A deny is exit 0 with `hookSpecificOutput.permissionDecision: "deny"` rather than
 * exit 2: the JSON form carries the reason to the model the same way, and it cannot be confused
 * with a crashed hook. The reason also goes to stderr (the debug log). SessionStart context is
 * plain stdout; a Stop block is `{"decision": "block", "reason"}`.
 */
import { hostEvents } from '../hooks/events.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from '../hooks/types.js';
import { normalize, record, type ToolTable } from './normalize.js';

export const CLAUDE_TOOLS: ToolTable = {
  tools: {
    Edit: { name: 'Edit', kind: 'edit' },
    Write: { name: 'Write', kind: 'edit' },
    MultiEdit: { name: 'MultiEdit', kind: 'edit' },
    NotebookEdit: { name: 'NotebookEdit', kind: 'edit' },
    Bash: { name: 'Bash', kind: 'bash' },
  },
};

/**
 * Claude Code's answer shapes, which Codex shares. `rewriteDecision` is the permissionDecision
 * sent with a rewritten command: none for Claude Code (below), "allow" for Codex, which applies
 * updatedInput only with it.
 */
export function renderClaudeLike(input: HookInput, outcome: HookOutcome, rewriteDecision?: 'allow'): Rendered {
  const stderr = [...outcome.log, ...(outcome.deny ? [outcome.deny.message] : [])].map((line) => `${line}\n`).join('');
  const json: Record<string, unknown> = {};
  if (outcome.deny) {
    json.hookSpecificOutput = {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]`,
    };
  } else if (outcome.rewrite) {
    // No permissionDecision: Claude Code then applies the rewrite and runs its own permission
    // check on it (measured, 2.1.328); "allow" would skip the check the user relies on.
    json.hookSpecificOutput = {
      hookEventName: 'PreToolUse',
      ...(rewriteDecision ? { permissionDecision: rewriteDecision } : {}),
      updatedInput: { ...record(input.raw.tool_input), command: outcome.rewrite.command },
    };
  }
  if (outcome.block) Object.assign(json, { decision: 'block', reason: outcome.block.reason });
  if (outcome.notice) json.systemMessage = outcome.notice;
  // Plain stdout is model context only for these two events; elsewhere, or with other fields to
  // carry, the context goes in hookSpecificOutput.
  if (
    outcome.context !== undefined &&
    (Object.keys(json).length > 0 || outcome.title !== undefined || !PLAIN_CONTEXT.has(input.event))
  ) {
    const specific: Record<string, unknown> = { hookEventName: input.event, additionalContext: outcome.context };
    if (outcome.title !== undefined) specific.sessionTitle = outcome.title;
    json.hookSpecificOutput = specific;
  } else if (outcome.context !== undefined) {
    return { stdout: `${outcome.context}\n`, stderr, code: 0 };
  }
  return { stdout: Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '', stderr, code: 0 };
}

const PLAIN_CONTEXT = new Set(['SessionStart', 'UserPromptSubmit']);
const EVENTS = hostEvents('claude');

export const claude: HostAdapter = {
  name: 'claude',
  rewritesShell: true,
  event: (hostEvent) => EVENTS[hostEvent],
  input: (hostEvent, raw) => normalize(hostEvent, hostEvent, raw, CLAUDE_TOOLS),
  render: renderClaudeLike,
};
