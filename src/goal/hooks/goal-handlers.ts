/**
 * The goal hooks of the `orchestrate` profile as handlers of the one hook pipeline: the events
 * of the registry they implement, each loaded only once a goal is in scope. They return the same
 * outcome as the harness handlers; the pipeline renders it and keeps them silent (a goal hook never
 * speaks on stderr), but for a goal pointer that cannot be read.
 */
import type { Handler, HandlerContext } from '../../harness/hooks/handlers/handler-context.js';
import { runPipeline, type HandlerTable, type HookRun } from '../../harness/hooks/pipeline.js';
import type { HookOutcome, Rendered } from '../../harness/hooks/types.js';
import { goalRoot } from '../goal-paths.js';
import { goalInput, type GoalPayload } from './input.js';
import { resolveScope, type Scope } from './scope.js';

type GoalHook = (scope: Scope, input: GoalPayload, context: HandlerContext) => Promise<HookOutcome>;

/**
 * The failures of reading the goal pointer. Which goal is active is then not known, so the goal
 * hooks are off: taken silently for "no goal", the session would go on without its goal's context
 * and nobody would know why. The pipeline says them as any failure of an ungated event (stderr,
 * exit 0: a goal hook only adds context, so it never blocks), and would fail closed on a gated one.
 */
const pointerFailures = new WeakSet<object>();

function inScope(load: () => Promise<GoalHook>): () => Promise<Handler> {
  return async () => async (context) => {
    const root = goalRoot(context.env);
    if (root === undefined) return { log: [] };
    const input = goalInput(context.input.raw);
    let scope: Scope | undefined;
    try {
      scope = resolveScope(root, input, context.cwd);
    } catch (error) {
      if (typeof error === 'object' && error !== null) pointerFailures.add(error);
      throw error;
    }
    return scope ? (await load())(scope, input, context) : { log: [] };
  };
}

const HANDLERS: HandlerTable = {
  SessionStart: inScope(async () => (await import('./session-start.js')).sessionStart),
  Stop: inScope(async () => (await import('./stop.js')).stop),
  SessionEnd: inScope(async () => (await import('./session-end.js')).sessionEnd),
};

export function runGoalHook(run: HookRun): Promise<Rendered> {
  return runPipeline(
    {
      ...run,
      silent: true,
      says: (error) => typeof error === 'object' && error !== null && pointerFailures.has(error),
    },
    HANDLERS,
  );
}
