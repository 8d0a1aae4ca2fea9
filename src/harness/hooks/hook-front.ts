/**
 * The answer to one hook call, whichever face received it: `baton hook` (the payload on stdin) and
 * `baton serve` (the payload as an HTTP body) both ask this, so a hook means the same through
 * either. It is the cheap front: it reads the config file, the event registry and the profiles'
 * event lists, and returns for any event the profile does not handle before the engine (schemas,
 * documents, policy, goal state) is imported. An event name the host does not have is a
 * configuration error (reported, and denied when it carries a tool call); every other odd input
 * is silence.
 */
import { absent } from '../../fs/absent.js';
import { join } from 'node:path';
import { debugLog } from './debug-log.js';
import { closedAnswer, gated } from './fail-closed.js';
import { configEvents, EVENTS, IGNORED_EVENTS, hostEvents, type EventName, type HostName } from './events.js';
import type { HookRun } from './pipeline.js';
import { parsePayload } from './stdin.js';
import type { HostAdapter, Rendered } from './types.js';
import { projectContext } from '../../project/project-context.js';
import { defaultRoot } from '../../project/root.js';
import { profileNamed, type Profile } from '../../project/profiles/registry.js';

export interface HookCall {
  /** The event as the host names it (`PreToolUse`, `BeforeTool`, ...). */
  event: string;
  /** The payload protocol: claude (default), codex, gemini or cursor. */
  host?: string | undefined;
  profile?: string | undefined;
  /** The payload as received (garbage and oversize bodies read as `{}`). */
  payload: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The CLI script: where baton is installed. */
  script?: string | undefined;
  /**
   * The goal hooks' runner (goal/hooks/goal-handlers.ts), handed in by the face: the goal workflow is built
   * on the harness, so the harness cannot import it.
   */
  goalHooks: () => Promise<(run: HookRun) => Promise<Rendered>>;
  /** A resident server's fetch of the shared store's documents (HookRun.fetchShared). */
  fetchShared?: HookRun['fetchShared'];
}

const SILENT: Rendered = { stdout: '', stderr: '', code: 0 };
/** Silence before any handler ran (an event nothing here handles): the same answer, told apart by nothingHandled(). */
const UNHANDLED: Rendered = Object.freeze({ ...SILENT });

/** Whether `answer` is answerHook's for an event nothing handled: no handler ran, and none was loaded. */
export function nothingHandled(answer: Rendered): boolean {
  return answer === UNHANDLED;
}

/**
 * The work board's events (handlers/board-events.ts, and the reservations PreToolUse enforces) run
 * wherever a board may be, whatever the profile: its file on the embedded store (the board's key,
 * board/model.ts BOARD_KEY, not imported so the front stays small), or a shared store the config
 * or the environment names.
 */
const BOARD_FILE = '.claude/state/board.json';
const BOARD_EVENTS: ReadonlySet<EventName> = new Set(['PreToolUse', 'SubagentStart', 'SubagentStop', 'SessionEnd']);

function boardMayExist(root: string, config: Record<string, unknown>, env: NodeJS.ProcessEnv): boolean {
  return !absent(join(root, BOARD_FILE)) || typeof config.store === 'string' || !!env.BATON_STORE;
}

/** A project with a config but no profile: only the events its sections turn on. */
const CONFIG_ONLY: Pick<Profile, 'kind' | 'events'> = { kind: 'harness', events: [] };

/**
 * The engine's side, imported once per process. Each `import()` of a lazy bundle copies its exports
 * into a new namespace object (the CommonJS bundles' interop): once per call in a resident server.
 */
let handlers: Promise<typeof import('./harness-handlers.js')> | undefined;
const loadHandlers = () =>
  (handlers ??= import('./harness-handlers.js').catch((error: unknown) => {
    handlers = undefined;
    throw error;
  }));

/**
 * The engine's bundle could not be loaded (an install cut short: `lazy/run-hook.js` missing or not
 * a file). The engine is what would judge, so a gated event (fail-closed.ts; with no merged config,
 * any edit or shell tool, any Stop that is not a continuation) is denied or blocked with the
 * failure's line, as the pipeline does when baton fails; any other event fails as before.
 */
function engineMissing(
  error: unknown,
  adapter: HostAdapter,
  call: HookCall,
  data: Record<string, unknown>,
  garbage: boolean,
  denyProtocol: unknown,
): Rendered {
  const input = adapter.input(call.event, data);
  if (!gated(input, undefined, garbage)) throw error;
  const line = `baton: ${(error as Error)?.message ?? String(error)}; edit and shell tools are denied until it is fixed`;
  debugLog(call.env, call.event, [`fail closed (engine-missing): ${line}`]);
  return closedAnswer(adapter, input, denyProtocol, line, 'engine-missing');
}

const HOSTS: Record<string, () => Promise<HostAdapter>> = {
  claude: async () => (await import('../hosts/claude.js')).claude,
  codex: async () => (await import('../hosts/codex.js')).codex,
  gemini: async () => (await import('../hosts/gemini.js')).gemini,
  cursor: async () => (await import('../hosts/cursor.js')).cursor,
};

export async function answerHook(call: HookCall): Promise<Rendered> {
  const host = call.host ?? 'claude';
  const loadHost = Object.hasOwn(HOSTS, host) ? HOSTS[host] : undefined;
  if (!call.event || !loadHost) return UNHANDLED;
  const adapter = await loadHost();
  const canonical = adapter.event(call.event);
  if (!canonical)
    return IGNORED_EVENTS.has(call.event) ? UNHANDLED : unknownEvent(call.event, host as HostName, adapter, call);
  const flagged = profileNamed(call.profile);
  // Goal hooks need no config file: decided before one is looked for.
  if (flagged?.kind === 'goal')
    return goalAndBoard(flagged, canonical, adapter, call, call.profile as string, defaultRoot(call.cwd, call.env));
  const { data, garbage } = parsePayload(call.payload);
  // Cursor names its workspace in the payload; BATON_ROOT / CLAUDE_PROJECT_DIR still win.
  const roots = data.workspace_roots;
  const workspace = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  // The same discovery as `baton task` and the compat scripts, so the gate reads the state they write.
  const { file, config, profile, root } = projectContext({
    cwd: call.cwd,
    env: call.env,
    profile: call.profile,
    workspace,
  });
  const board = BOARD_EVENTS.has(canonical) && boardMayExist(root, config, call.env);
  if (file.state === 'missing' && profile === undefined && !board) return UNHANDLED;
  const front = profileNamed(profile) ?? CONFIG_ONLY;
  if (front.kind === 'goal') return goalAndBoard(front, canonical, adapter, call, profile as string, root);
  const handled = new Set([...front.events, ...configEvents(config)]);
  if (file.state !== 'invalid' && !handled.has(canonical) && !board) return UNHANDLED;
  let engine: Awaited<ReturnType<typeof loadHandlers>>;
  try {
    engine = await loadHandlers();
  } catch (error) {
    return engineMissing(error, adapter, call, data, garbage, config.denyProtocol);
  }
  return engine.runHook({
    adapter,
    hostEvent: call.event,
    raw: data,
    garbage,
    config,
    root,
    cwd: call.cwd,
    env: call.env,
    ...(call.script ? { script: call.script } : {}),
    ...(call.fetchShared ? { fetchShared: call.fetchShared } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(file.state === 'invalid' ? { configError: file.error } : {}),
  });
}

/**
 * A goal profile's project may have a work board too: its events run the board's handlers (the
 * harness pipeline with no rules of its own: reservations, identity, claims ending) besides the goal
 * hooks. An event both handle (SessionEnd) answers with the goal hooks' answer.
 */
async function goalAndBoard(
  front: Pick<Profile, 'events' | 'active'>,
  canonical: EventName,
  adapter: HostAdapter,
  call: HookCall,
  profile: string,
  root: string,
): Promise<Rendered> {
  if (!BOARD_EVENTS.has(canonical) || !boardMayExist(root, {}, call.env))
    return goal(front, canonical, adapter, call, profile);
  const { data, garbage } = parsePayload(call.payload);
  let engine: Awaited<ReturnType<typeof loadHandlers>>;
  try {
    engine = await loadHandlers();
  } catch (error) {
    return engineMissing(error, adapter, call, data, garbage, undefined);
  }
  const board = () =>
    engine.runHook({
      adapter,
      hostEvent: call.event,
      raw: data,
      garbage,
      config: {},
      root,
      cwd: call.cwd,
      env: call.env,
      ...(call.script ? { script: call.script } : {}),
    });
  if (!front.events.includes(canonical)) return board();
  const answer = await goal(front, canonical, adapter, call, profile);
  await board();
  return answer;
}

/** The goal hooks: the common case, no active goal, costs one stat. Silent whatever happens. */
async function goal(
  front: Pick<Profile, 'events' | 'active'>,
  canonical: EventName,
  adapter: HostAdapter,
  call: HookCall,
  profile: string,
): Promise<Rendered> {
  try {
    if (!front.events.includes(canonical) || (front.active && !front.active(call.env))) return UNHANDLED;
    const { data, garbage } = parsePayload(call.payload);
    const run: HookRun = {
      adapter,
      hostEvent: call.event,
      raw: data,
      garbage,
      config: {},
      profile,
      root: call.cwd,
      cwd: call.cwd,
      env: call.env,
    };
    return await (
      await call.goalHooks()
    )(run);
  } catch {
    return SILENT; // silent by contract: goal hooks never fail the host
  }
}

/**
 * `baton hook pretooluse`: a name the host never sends to baton under that spelling, so the hook
 * it was meant to be is not running. Said on stderr (exit 1: the host shows it as a hook error) and
 * in the debug log; a payload carrying a tool call is denied, since it is a tool gate that does not
 * work.
 */
function unknownEvent(event: string, host: HostName, adapter: HostAdapter, call: HookCall): Rendered {
  const known = Object.keys(hostEvents(host)).join(', ');
  const line = `baton hook: unknown event '${event}'${host === 'claude' ? '' : ` for ${host}`}; baton handles ${known} (names are case-sensitive): fix the command in the host's hook settings`;
  debugLog(call.env, event, [line]);
  const { data } = parsePayload(call.payload);
  if (typeof data.tool_name !== 'string' && typeof data.toolName !== 'string')
    return { stdout: '', stderr: `${line}\n`, code: 1 };
  const toolEvent = host === 'claude' ? 'PreToolUse' : (EVENTS.PreToolUse.hosts[host]?.[0] ?? 'PreToolUse');
  return adapter.render(adapter.input(toolEvent, data), { deny: { rule: 'unknown-event', message: line }, log: [] });
}
