/**
 * The goal hooks of the `orchestrate` profile as handlers of the one hook pipeline: the events
 * of the registry they implement, each loaded only once a goal is in scope. They return the same
 * outcome as the harness handlers; the pipeline renders it and keeps them silent (a goal hook never speaks on stderr).
 */
import type { Handler, HandlerContext } from '../../harness/hooks/handlers/handler-context.js';
import { runPipeline, type HandlerTable, type HookRun } from '../../harness/hooks/pipeline.js';
import type { HookOutcome, Rendered } from '../../harness/hooks/types.js';
import { goalRoot } from '../goal-paths.js';
import { goalInput, type GoalPayload } from './input.js';
import { resolveScope, type Scope } from './scope.js';

type GoalHook = (scope: Scope, input: GoalPayload, context: HandlerContext) => Promise<HookOutcome>;

function inScope(load: () => Promise<GoalHook>): () => Promise<Handler> {
  return async () => async (context) => {
    const root = goalRoot(context.env);
    if (root === undefined) return { log: [] };
    const input = goalInput(context.input.raw);
    const scope = resolveScope(root, input, context.cwd);
    return scope ? (await load())(scope, input, context) : { log: [] };
  };
}

const HANDLERS: HandlerTable = {
  SessionStart: inScope(async () => (await import('./session-start.js')).sessionStart),
  Stop: inScope(async () => (await import('./stop.js')).stop),
  SessionEnd: inScope(async () => (await import('./session-end.js')).sessionEnd),
};

export function runGoalHook(run: HookRun): Promise<Rendered> {
  return runPipeline({ ...run, silent: true }, HANDLERS);
}
