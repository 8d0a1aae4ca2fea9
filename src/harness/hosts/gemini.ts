/**
 * Gemini CLI: its own event names (BeforeTool, AfterAgent, PreCompress, ...), tools named
 * `write_file`/`replace`/`run_shell_command`, and decisions as `{"decision": "allow"|"deny",
 * "reason"}`. Context goes in `hookSpecificOutput.additionalContext`. Timeouts in its settings
 * are milliseconds.
 */
import { hostEvents } from '../hooks/events.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from '../hooks/types.js';
import { normalize, record, type ToolTable } from './normalize.js';

const EVENTS = hostEvents('gemini');

const TOOLS: ToolTable = {
  tools: {
    write_file: { name: 'Write', kind: 'edit' },
    replace: { name: 'Edit', kind: 'edit' },
    edit: { name: 'Edit', kind: 'edit' },
    run_shell_command: { name: 'Bash', kind: 'bash' },
  },
};

function render(input: HookInput, outcome: HookOutcome): Rendered {
  const stderr = [...outcome.log, ...(outcome.deny ? [outcome.deny.message] : [])].map((line) => `${line}\n`).join('');
  const json: Record<string, unknown> = {};
  if (outcome.deny)
    Object.assign(json, { decision: 'deny', reason: `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]` });
  if (outcome.block) Object.assign(json, { decision: 'deny', reason: outcome.block.reason });
  // Gemini 0.61 builds the tool call again from `tool_input` and then runs its own policy check and
  // confirmation on the rebuilt call (its scheduler: the BeforeTool hook, then checkPolicy).
  if (outcome.rewrite && !outcome.deny)
    json.hookSpecificOutput = {
      hookEventName: input.hostEvent,
      tool_input: { ...record(input.raw.tool_input), command: outcome.rewrite.command },
    };
  if (outcome.context !== undefined)
    json.hookSpecificOutput = { hookEventName: input.hostEvent, additionalContext: outcome.context };
  if (outcome.notice) json.systemMessage = outcome.notice;
  return { stdout: Object.keys(json).length > 0 ? `${JSON.stringify(json)}\n` : '', stderr, code: 0 };
}

/**
 * In a headless run (`gemini -p`) Gemini 0.61 puts SessionStart's context before the user's text,
 * as `<hook_context>...</hook_context>` and a blank line, and BeforeAgent gets that as its prompt
 * (recorded: test/fixtures/hosts/gemini-0.61.0/BeforeAgent-hook_context.json). Gemini escapes `<`
 * in hook context, so the first closing tag ends the block.
 */
const HOOK_CONTEXT = /^<hook_context>[^]*?<\/hook_context>(\n\n|$)/;

export const gemini: HostAdapter = {
  name: 'gemini',
  rewritesShell: true,
  event: (hostEvent) => EVENTS[hostEvent],
  input: (hostEvent, raw) => {
    const input = normalize(EVENTS[hostEvent] ?? hostEvent, hostEvent, raw, TOOLS);
    return hostEvent === 'BeforeAgent' ? { ...input, prompt: input.prompt.replace(HOOK_CONTEXT, '') } : input;
  },
  render,
};
