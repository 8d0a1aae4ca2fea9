/**
 * The host-neutral shapes every hook handler works on. Host adapters (hosts/*.ts) translate a
 * host's payload into HookInput and a HookOutcome back into the host's protocol, so the handlers
 * and the policy rules are written once, in Claude Code's vocabulary.
 */
import type { EventName } from './events.js';

export type ToolKind = 'edit' | 'bash' | 'other';

export interface HookInput {
  /** Canonical (Claude Code) event name: PreToolUse, SessionStart, SubagentStop, ... */
  event: string;
  /** The event name the host used, for outputs that must echo it. */
  hostEvent: string;
  raw: Record<string, unknown>;
  toolName: string;
  toolKind: ToolKind;
  /** Every file a tool call edits (apply_patch may touch several). */
  filePaths: string[];
  command: string;
  prompt: string;
  agentId: string;
  agentType: string;
  lastMessage: string;
  stopHookActive: boolean;
  source: string;
  sessionId: string;
  /** Where the tool runs (bash targets resolve against it); '' when the host did not say. */
  cwd: string;
}

export interface HookOutcome {
  /** PreToolUse: the call is refused. */
  deny?: { rule: string; message: string };
  /** PreToolUse: the shell command runs as this instead (the OS sandbox); the host's permission check still applies. */
  rewrite?: { command: string };
  /** Stop-like events: the agent is told to continue with this reason. */
  block?: { reason: string };
  /** Text for the model's context (SessionStart, UserPromptSubmit, Stop). */
  context?: string;
  /** SessionStart: a title for the session, where the host shows one. */
  title?: string;
  /** Shown to the user (config problems that disable a gate). */
  notice?: string;
  /** Diagnostics for stderr and the debug log; never model context. */
  log: string[];
}

export interface Rendered {
  stdout: string;
  stderr: string;
  code: number;
}

export interface HostAdapter {
  name: string;
  /** The host applies a PreToolUse rewrite of a shell command without bypassing its permission check. */
  rewritesShell?: boolean;
  /** Canonical event for a host event name; undefined when baton has no such hook. */
  event(hostEvent: string): EventName | undefined;
  input(hostEvent: string, raw: Record<string, unknown>): HookInput;
  render(input: HookInput, outcome: HookOutcome): Rendered;
}
