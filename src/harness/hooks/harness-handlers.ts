/**
 * The harness profiles' handlers, one per event of the registry (events.ts) they implement,
 * each imported only when its event arrives.
 */
import { runPipeline, type HandlerTable, type HookRun } from './pipeline.js';
import type { Rendered } from './types.js';

const HANDLERS: HandlerTable = {
  SessionStart: async () => (await import('./handlers/resume-line.js')).sessionStart,
  UserPromptSubmit: async () => (await import('./handlers/prompt-audit.js')).promptAudit,
  PreToolUse: async () => (await import('./handlers/pre-tool.js')).preTool,
  SubagentStart: async () => (await import('./handlers/board-events.js')).subagentStart,
  SubagentStop: async () => (await import('./handlers/board-events.js')).subagentStop,
  PreCompact: async () => (await import('./handlers/pre-compact.js')).preCompact,
  Stop: async () => (await import('./handlers/stop-gate.js')).stop,
  SessionEnd: async () => (await import('./handlers/board-events.js')).sessionEnd,
};

export function runHook(run: HookRun): Promise<Rendered> {
  return runPipeline(run, HANDLERS);
}

export type { HookRun };
