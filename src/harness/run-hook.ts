import type { Issue } from '../core/errors.js';
import type { ConfigInput, HarnessConfig } from './config-types.js';
import { mergeConfig, validateConfig } from './config.js';
import { debugLog } from './debug-log.js';
import type { Handler } from './handlers/context.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from './types.js';

/**
 * The engine side of `baton hook`, loaded only for an event the profile handles: validates and
 * merges the config, runs the event's handler (itself lazily imported), renders the outcome in
 * the host's protocol. Every failure fails open (exit 0, no decision) and is logged, because a
 * hook that crashes silently disables its gate in the host anyway.
 */
const HANDLERS: Record<string, () => Promise<Handler>> = {
  SessionStart: async () => (await import('./handlers/session-start.js')).sessionStart,
  UserPromptSubmit: async () => (await import('./handlers/prompt-audit.js')).promptAudit,
  PreToolUse: async () => (await import('./handlers/pre-tool.js')).preTool,
  SubagentStop: async () => (await import('./wave-barrier.js')).waveBarrier,
  PreCompact: async () => (await import('./handlers/pre-compact.js')).preCompact,
  Stop: async () => (await import('./handlers/stop.js')).stop,
};

/** Events that cannot decide anything from an empty payload: garbage makes them exit silently. */
const NEEDS_PAYLOAD = new Set(['PreToolUse', 'SubagentStop', 'UserPromptSubmit', 'Stop']);

export interface HookRun {
  adapter: HostAdapter;
  hostEvent: string;
  raw: Record<string, unknown>;
  garbage: boolean;
  config: ConfigInput;
  configError?: string;
  profile?: string;
  root: string;
  env: NodeJS.ProcessEnv;
}

export async function runHook(run: HookRun): Promise<Rendered> {
  const input = run.adapter.input(run.hostEvent, run.raw);
  const silent: Rendered = { stdout: '', stderr: '', code: 0 };
  if (run.garbage && NEEDS_PAYLOAD.has(input.event)) {
    debugLog(run.env, run.hostEvent, ['stdin was not a JSON object; nothing to decide, exiting 0']);
    return silent;
  }
  const problems = configProblems(run);
  if (problems) {
    debugLog(run.env, run.hostEvent, [problems]);
    return run.adapter.render(input, { notice: problems, log: [problems] });
  }
  let outcome: HookOutcome;
  try {
    outcome = await handle(input, mergeConfig(run.config, run.profile), run);
  } catch (error) {
    const line = `[baton hook] internal error in ${input.event}, allowing: ${(error as Error)?.stack ?? String(error)}`;
    debugLog(run.env, run.hostEvent, [line]);
    return { stdout: '', stderr: `${line.split('\n')[0]}\n`, code: 0 };
  }
  if (outcome.deny) debugLog(run.env, run.hostEvent, [`deny by ${outcome.deny.rule}: ${input.toolName} ${input.filePaths.join(' ') || input.command}`]);
  if (run.garbage) outcome.log.unshift('[baton hook] stdin was not a JSON object; read as {}');
  debugLog(run.env, run.hostEvent, outcome.log);
  return run.adapter.render(input, outcome);
}

async function handle(input: HookInput, config: HarnessConfig, run: HookRun): Promise<HookOutcome> {
  const load = HANDLERS[input.event];
  if (!load) return { log: [] };
  return (await load())({ input, config, root: run.root, env: run.env, now: new Date() });
}

function configProblems(run: HookRun): string | undefined {
  if (run.configError) return `baton: ${run.configError}; baton hooks are off until it is fixed`;
  const issues: Issue[] = validateConfig(run.config, run.profile);
  if (issues.length === 0) return undefined;
  return `baton: baton.config.json has ${issues.length} problem(s): ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}; baton hooks are off until it is fixed`;
}
