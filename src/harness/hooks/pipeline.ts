/**
 * The engine side of `baton hook`, shared by both kinds of profile (harness handlers in
 * harness-handlers.ts, goal hooks in goal/hooks/goal-handlers.ts): validates and merges the config, runs the
 * event's handler (itself lazily imported), renders the outcome in the host's protocol.
 *
 * When baton itself fails (a config that does not parse or validate, a payload that is not one JSON
 * object, a handler that throws), a gated event fails closed: a PreToolUse of an edit or shell tool
 * where rules are active is denied, a Stop with a barrier is blocked (once: never while
 * stop_hook_active is set, so a session cannot be stuck), each with the failure's one line. A hook
 * that is still running can answer; only one that cannot start leaves it to the wrapper
 * (plugin/bin/baton). Ungated events log the failure and stay silent.
 */
import { isBatonError } from '../../core/errors.js';
import { mergeConfig, validateConfig, type HarnessConfig } from '../../project/config.js';
import { debugLog } from './debug-log.js';
import { EVENTS, isEventName, type EventName } from './events.js';
import { closedAnswer, exitTwo, gated } from './fail-closed.js';
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
  /** The CLI script (`process.argv[1]`): where baton is installed. */
  script?: string;
  /**
   * Goal hooks: nothing on stderr, whatever happens (the host shows a hook's stderr to the user),
   * but the failures `says` names, which are said as any ungated failure is.
   */
  silent?: boolean;
  says?: (error: unknown) => boolean;
  /** How the shared store's documents are fetched: a resident server keeps them (serve/shared-state.ts). */
  fetchShared?: typeof fetchSharedDocuments;
}

export async function runPipeline(run: HookRun, handlers: HandlerTable): Promise<Rendered> {
  const input = run.adapter.input(run.hostEvent, run.raw);
  return decide(run, input, handlers);
}

async function decide(run: HookRun, input: HookInput, handlers: HandlerTable): Promise<Rendered> {
  const silent: Rendered = { stdout: '', stderr: '', code: 0 };
  if (!isEventName(input.event)) return silent;
  const config = effectiveConfig(run);
  if (typeof config === 'string') {
    if (gated(input, undefined, run.garbage))
      return failClosed(
        run,
        input,
        undefined,
        `baton: ${config}; edit and shell tools are denied until it is fixed`,
        'config-invalid',
      );
    const line = `baton: ${config}; baton hooks are off until it is fixed`;
    debugLog(run.env, run.hostEvent, [line]);
    return run.adapter.render(input, { notice: line, log: run.silent ? [] : [line] });
  }
  if (run.garbage && EVENTS[input.event].needsPayload) {
    const line = `baton: the ${input.event} hook's stdin was not a JSON object of at most 32 MiB, so baton could not check this call; fix the hook's caller: it must send the host's JSON payload`;
    if (gated(input, config, true)) return failClosed(run, input, config, line, 'bad-payload');
    debugLog(run.env, run.hostEvent, ['stdin was not a JSON object; nothing to decide, exiting 0']);
    return silent;
  }
  let outcome: HookOutcome;
  try {
    const load = handlers[input.event];
    if (load) {
      let fetched = await (run.fetchShared ?? fetchSharedDocuments)(
        config,
        run.config,
        run.root,
        run.env,
        run.hostEvent,
      );
      const handler = await load();
      // Deciding on kept documents before the store confirms them is for a tool call's gate
      // alone, which writes nothing (its sandbox spec files are named by their content). Any other
      // handler may consume a field, move the board or run a Stop check's script: run twice, the
      // first run's effects would stand on documents that were not current. It waits instead.
      if (fetched?.confirm && input.event !== 'PreToolUse') {
        const { confirm, ...kept } = fetched;
        fetched = (await confirm()) ?? kept;
      }
      for (;;) {
        const tried = await handler({
          input,
          config,
          root: run.root,
          cwd: run.cwd,
          env: run.env,
          now: new Date(),
          host: { name: run.adapter.name, rewritesShell: run.adapter.rewritesShell === true },
          ...(run.script ? { script: run.script } : {}),
          ...(fetched ? { documents: fetched.documents } : {}),
          ...(fetched?.board ? { board: fetched.board } : {}),
          ...(fetched?.reason !== undefined ? { storeProblem: fetched.reason } : {}),
        }).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        // Decided on kept documents while the store was asked whether they are still the
        // committed ones: on others the decision (or its failure) is made again.
        const fresh = await fetched?.confirm?.();
        if (fresh) {
          fetched = fresh;
          continue;
        }
        if ('error' in tried) throw tried.error;
        outcome = tried.value;
        break;
      }
      if (fetched?.problem) outcome.notice = outcome.notice ? `${outcome.notice}\n${fetched.problem}` : fetched.problem;
    } else outcome = { log: [] };
  } catch (error) {
    // A refusal (a path leading out of the project, a lock timeout) is reported as itself, not as a bug.
    if (gated(input, config, run.garbage)) {
      debugLog(run.env, run.hostEvent, [
        `[baton hook] ${input.event} failed: ${(error as Error)?.stack ?? String(error)}`,
      ]);
      // The error's own first line (a stack starts with the file, which says nothing to the agent).
      const why = isBatonError(error) ? error.message : `internal error: ${String(error).split('\n')[0]}`;
      const line = `baton: the ${input.event} hook failed (${why}), so baton could not check this; fix the cause, or run 'baton doctor' (the stack is in baton's hook log)`;
      return failClosed(run, input, config, line, 'hook-failed');
    }
    const line = isBatonError(error)
      ? `[baton hook] ${input.event} did nothing, allowing: ${error.message}`
      : `[baton hook] internal error in ${input.event}, allowing: ${(error as Error)?.stack ?? String(error)}`;
    debugLog(run.env, run.hostEvent, [line]);
    if (run.silent && !run.says?.(error)) return silent;
    return { stdout: '', stderr: `${line.split('\n')[0]}\n`, code: 0 };
  }
  if (outcome.rewrite) debugLog(run.env, run.hostEvent, [`sandboxed: ${input.toolName} ${input.command}`]);
  if (outcome.deny)
    debugLog(run.env, run.hostEvent, [
      `deny by ${outcome.deny.rule}: ${input.toolName} ${input.filePaths.join(' ') || input.command}`,
    ]);
  if (run.garbage) outcome.log.unshift('[baton hook] stdin was not a JSON object; read as {}');
  debugLog(run.env, run.hostEvent, outcome.log);
  const shown = run.silent ? { ...outcome, log: [] } : outcome;
  return config.denyProtocol === 'exit2' ? exitTwo(input, shown, run.adapter) : run.adapter.render(input, shown);
}

/** A gated event's answer when baton failed (fail-closed.ts), said in the debug log too. */
function failClosed(
  run: HookRun,
  input: HookInput,
  config: HarnessConfig | undefined,
  line: string,
  rule: string,
): Rendered {
  debugLog(run.env, run.hostEvent, [`fail closed (${rule}): ${line}`]);
  return closedAnswer(run.adapter, input, config?.denyProtocol, line, rule);
}

/**
 * Merged configs by the raw config they came from and the profile: a resident server hands every
 * hook the one parse of an unchanged config file (fs/kept-reads.ts), so it is checked and merged
 * once per change, not once per call. A changed file is a new object, and the old one's entry goes
 * with it.
 */
const merged = new WeakMap<object, Map<string | undefined, HarnessConfig | string>>();

/** The merged config, or what is wrong with the config file (naming it and the fix). */
function effectiveConfig(run: HookRun): HarnessConfig | string {
  if (run.configError) return run.configError;
  let byProfile = merged.get(run.config);
  if (!byProfile) merged.set(run.config, (byProfile = new Map<string | undefined, HarnessConfig | string>()));
  let config = byProfile.get(run.profile);
  if (config === undefined) byProfile.set(run.profile, (config = checkedConfig(run.config, run.profile)));
  return config;
}

function checkedConfig(raw: Record<string, unknown>, profile: string | undefined): HarnessConfig | string {
  const { config, issues } = validateConfig(raw, profile);
  if (config) return mergeConfig(config, profile);
  return `baton.config.json has ${issues.length} problem(s): ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}; fix the file ('baton doctor' lists them)`;
}
