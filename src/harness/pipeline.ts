/**
 * The engine side of `baton hook`, shared by both kinds of profile (harness handlers in
 * run-hook.ts, goal hooks in goal/hooks/run.ts): validates and merges the config, runs the
 * event's handler (itself lazily imported), renders the outcome in the host's protocol. Every
 * failure fails open (exit 0, no decision) and is logged, because a hook that crashes silently
 * disables its gate in the host anyway.
 */
import { isBatonError } from '../core/errors.js';
import { mergeConfig, validateConfig, type HarnessConfig } from '../project/config.js';
import { debugLog } from './debug-log.js';
import { EVENTS, isEventName, type EventName } from './events.js';
import { fetchSharedDocuments } from './shared-documents.js';
import type { Handler } from './handlers/handler-context.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from './types.js';

export type HandlerTable = Partial<Record<EventName, () => Promise<Handler>>>;

export interface HookRun {
  adapter: HostAdapter;
  hostEvent: string;
  raw: Record<string, unknown>;
  garbage: boolean;
  /** baton.config.json as read; checked against its schema before any handler sees it. */
  config: Record<string, unknown>;
  configError?: string;
  profile?: string;
  root: string;
  /** The process's working directory (the payload's `cwd` may differ). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Goal hooks: nothing on stderr and no notices, whatever happens: the host shows a hook's stderr to the user. */
  silent?: boolean;
}

export async function runPipeline(run: HookRun, handlers: HandlerTable): Promise<Rendered> {
  const input = run.adapter.input(run.hostEvent, run.raw);
  const rendered = await decide(run, input, handlers);
  return run.silent ? { stdout: rendered.stdout, stderr: '', code: 0 } : rendered;
}

async function decide(run: HookRun, input: HookInput, handlers: HandlerTable): Promise<Rendered> {
  const silent: Rendered = { stdout: '', stderr: '', code: 0 };
  if (!isEventName(input.event)) return silent;
  if (run.garbage && EVENTS[input.event].needsPayload) {
    debugLog(run.env, run.hostEvent, ['stdin was not a JSON object; nothing to decide, exiting 0']);
    return silent;
  }
  const config = effectiveConfig(run);
  if (typeof config === 'string') {
    debugLog(run.env, run.hostEvent, [config]);
    return run.adapter.render(input, { notice: config, log: [config] });
  }
  let outcome: HookOutcome;
  try {
    const load = handlers[input.event];
    if (load) {
      const fetched = await fetchSharedDocuments(config, run.config, run.root, run.env, run.hostEvent);
      const handler = await load();
      outcome = await handler({
        input,
        config,
        root: run.root,
        cwd: run.cwd,
        env: run.env,
        now: new Date(),
        ...(fetched ? { documents: fetched.documents } : {}),
      });
      if (fetched?.problem) outcome.notice = outcome.notice ? `${outcome.notice}\n${fetched.problem}` : fetched.problem;
    } else outcome = { log: [] };
  } catch (error) {
    // A refusal (a path leading out of the project, a lock timeout) is reported as itself, not as a bug.
    const line = isBatonError(error)
      ? `[baton hook] ${input.event} did nothing, allowing: ${error.message}`
      : `[baton hook] internal error in ${input.event}, allowing: ${(error as Error)?.stack ?? String(error)}`;
    debugLog(run.env, run.hostEvent, [line]);
    return { stdout: '', stderr: `${line.split('\n')[0]}\n`, code: 0 };
  }
  if (outcome.deny)
    debugLog(run.env, run.hostEvent, [
      `deny by ${outcome.deny.rule}: ${input.toolName} ${input.filePaths.join(' ') || input.command}`,
    ]);
  if (run.garbage) outcome.log.unshift('[baton hook] stdin was not a JSON object; read as {}');
  debugLog(run.env, run.hostEvent, outcome.log);
  return config.denyProtocol === 'exit2' ? exitTwo(input, outcome, run.adapter) : run.adapter.render(input, outcome);
}

/**
 * The exit-2 protocol (`"denyProtocol": "exit2"` in baton.config.json), for hosts and wrapper
 * scripts that read a block from the exit code: the reason alone on stderr and exit 2. Everything
 * that is not a deny or block renders as usual.
 */
function exitTwo(input: HookInput, outcome: HookOutcome, adapter: HostAdapter): Rendered {
  const reason = outcome.deny ? `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]` : outcome.block?.reason;
  if (reason === undefined) return adapter.render(input, outcome);
  return { stdout: '', stderr: `${reason}\n`, code: 2 };
}

/** The merged config, or why the hooks are off. */
function effectiveConfig(run: HookRun): HarnessConfig | string {
  const off = 'baton hooks are off until it is fixed';
  if (run.configError) return `baton: ${run.configError}; ${off}`;
  const { config, issues } = validateConfig(run.config, run.profile);
  if (config) return mergeConfig(config, run.profile);
  return `baton: baton.config.json has ${issues.length} problem(s): ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}; ${off}`;
}
