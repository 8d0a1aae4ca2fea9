/**
 * Cursor: camelCase events (`preToolUse`, `beforeShellExecution`, `subagentStop`, ...), the
 * project in `workspace_roots`, and answers as `{"permission": "deny", "user_message",
 * "agent_message"}`; `stop` continues the agent with `followup_message`. An allowed call prints
 * nothing, which leaves Cursor's own permission settings in charge.
 */
import { hostEvents } from '../hooks/events.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from '../hooks/types.js';
import { normalize, type ToolTable } from './normalize.js';

const EVENTS = hostEvents('cursor');

const TOOLS: ToolTable = {
  tools: {
    Write: { name: 'Write', kind: 'edit' },
    Edit: { name: 'Edit', kind: 'edit' },
    MultiEdit: { name: 'MultiEdit', kind: 'edit' },
    StrReplace: { name: 'Edit', kind: 'edit' },
    Delete: { name: 'Write', kind: 'edit' },
    Shell: { name: 'Bash', kind: 'bash' },
    Bash: { name: 'Bash', kind: 'bash' },
    run_terminal_cmd: { name: 'Bash', kind: 'bash' },
  },
};

function input(hostEvent: string, raw: Record<string, unknown>): HookInput {
  const event = EVENTS[hostEvent] ?? hostEvent;
  // beforeShellExecution carries the command at the top level and names no tool.
  const payload =
    hostEvent === 'beforeShellExecution' ? { ...raw, tool_name: 'Shell', tool_input: { command: raw.command } } : raw;
  return normalize(event, hostEvent, payload, TOOLS);
}

function render(_input: HookInput, outcome: HookOutcome): Rendered {
  const stderr = [...outcome.log, ...(outcome.deny ? [outcome.deny.message] : [])].map((line) => `${line}\n`).join('');
  const json: Record<string, unknown> = {};
  if (outcome.deny) {
    const reason = `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]`;
    Object.assign(json, { permission: 'deny', user_message: reason, agent_message: reason });
  }
  if (outcome.block) json.followup_message = outcome.block.reason;
  if (outcome.context !== undefined) json.additional_context = outcome.context;
  if (outcome.notice) json.user_message ??= outcome.notice;
  return { stdout: Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '', stderr, code: 0 };
}

export const cursor: HostAdapter = {
  name: 'cursor',
  event: (hostEvent) => EVENTS[hostEvent],
  input,
  render,
};
