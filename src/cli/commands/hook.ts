/**
 * `baton hook <Event> [--profile NAME] [--host claude|codex|gemini|cursor]`: reads one payload,
 * answers in the host's protocol. This file is the cheap front: it reads stdin, the config file,
 * the event registry and the profiles' event lists, and returns for any event the profile does
 * not handle before the engine (schemas, documents, policy, goal state) is imported. An event name
 * the host does not have is a configuration error (reported, and denied when it carries a tool
 * call); every other odd input exits 0.
 */
import { debugLog } from '../../harness/hooks/debug-log.js';
import {
  configEvents,
  EVENTS,
  IGNORED_EVENTS,
  hostEvents,
  type EventName,
  type HostName,
} from '../../harness/hooks/events.js';
import type { HookRun } from '../../harness/hooks/pipeline.js';
import { parsePayload, readPayload } from '../../harness/hooks/stdin.js';
import type { HostAdapter, Rendered } from '../../harness/hooks/types.js';
import { projectContext } from '../../project/project-context.js';
import { profileNamed, type Profile } from '../../project/profiles/registry.js';
import type { CommandIo } from '../../core/command-io.js';

/** A project with a config but no profile: only the events its sections turn on. */
const CONFIG_ONLY: Pick<Profile, 'kind' | 'events'> = { kind: 'harness', events: [] };

const HOSTS: Record<string, () => Promise<HostAdapter>> = {
  claude: async () => (await import('../../harness/hosts/claude.js')).claude,
  codex: async () => (await import('../../harness/hosts/codex.js')).codex,
  gemini: async () => (await import('../../harness/hosts/gemini.js')).gemini,
  cursor: async () => (await import('../../harness/hosts/cursor.js')).cursor,
};

export default async function hook(args: string[], cli: CommandIo): Promise<number> {
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const event = args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '--profile' && args[i - 1] !== '--host');
  const stdin = await readPayload();
  const host = flag('--host') ?? 'claude';
  const loadHost = Object.hasOwn(HOSTS, host) ? HOSTS[host] : undefined;
  if (!event || !loadHost) return 0;
  const adapter = await loadHost();
  const canonical = adapter.event(event);
  if (!canonical) return IGNORED_EVENTS.has(event) ? 0 : unknownEvent(event, host as HostName, adapter, stdin, cli);
  const profileFlag = flag('--profile');
  const flagged = profileNamed(profileFlag);
  // Goal hooks need no config file: decided before one is looked for.
  if (flagged?.kind === 'goal')
    return goal(flagged, canonical, { adapter, hostEvent: event, stdin, profile: profileFlag as string }, cli);
  const { data, garbage } = parsePayload(stdin);
  // Cursor names its workspace in the payload; BATON_ROOT / CLAUDE_PROJECT_DIR still win.
  const roots = data.workspace_roots;
  const workspace = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  // The same discovery as `baton task` and the compat scripts, so the gate reads the state they write.
  const { file, config, profile, root } = projectContext({
    cwd: cli.cwd,
    env: cli.env,
    profile: profileFlag,
    workspace,
  });
  if (file.state === 'missing' && profile === undefined) return 0;
  const front = profileNamed(profile) ?? CONFIG_ONLY;
  if (front.kind === 'goal')
    return goal(front, canonical, { adapter, hostEvent: event, stdin, profile: profile as string }, cli);
  const handled = new Set([...front.events, ...configEvents(config)]);
  if (file.state !== 'invalid' && !handled.has(canonical)) return 0;
  const { runHook } = await import('../../harness/hooks/run-hook.js');
  return emit(
    cli,
    await runHook({
      adapter,
      hostEvent: event,
      raw: data,
      garbage,
      config,
      root,
      cwd: cli.cwd,
      env: cli.env,
      ...(cli.script ? { script: cli.script } : {}),
      ...(profile !== undefined ? { profile } : {}),
      ...(file.state === 'invalid' ? { configError: file.error } : {}),
    }),
  );
}

interface GoalCall {
  adapter: HostAdapter;
  hostEvent: string;
  stdin: string;
  profile: string;
}

/** The goal hooks: the common case, no active goal, costs one stat. Silent whatever happens. */
async function goal(
  front: Pick<Profile, 'events' | 'active'>,
  canonical: EventName,
  call: GoalCall,
  cli: CommandIo,
): Promise<number> {
  try {
    if (!front.events.includes(canonical) || (front.active && !front.active(cli.env))) return 0;
    const { data, garbage } = parsePayload(call.stdin);
    const run: HookRun = {
      adapter: call.adapter,
      hostEvent: call.hostEvent,
      raw: data,
      garbage,
      config: {},
      profile: call.profile,
      root: cli.cwd,
      cwd: cli.cwd,
      env: cli.env,
    };
    return emit(cli, await (await import('../../goal/hooks/run.js')).runGoalHook(run));
  } catch {
    return 0; // silent by contract: goal hooks never fail the host
  }
}

/**
 * `baton hook pretooluse`: a name the host never sends to baton under that spelling, so the hook
 * it was meant to be is not running. Said on stderr (exit 1: the host shows it as a hook error) and
 * in the debug log; a payload carrying a tool call is denied, since it is a tool gate that does not
 * work.
 */
function unknownEvent(event: string, host: HostName, adapter: HostAdapter, stdin: string, cli: CommandIo): number {
  const known = Object.keys(hostEvents(host)).join(', ');
  const line = `baton hook: unknown event '${event}'${host === 'claude' ? '' : ` for ${host}`}; baton handles ${known} (names are case-sensitive): fix the command in the host's hook settings`;
  debugLog(cli.env, event, [line]);
  const { data } = parsePayload(stdin);
  if (typeof data.tool_name !== 'string' && typeof data.toolName !== 'string') {
    cli.err(`${line}\n`);
    return 1;
  }
  const toolEvent = host === 'claude' ? 'PreToolUse' : (EVENTS.PreToolUse.hosts[host]?.[0] ?? 'PreToolUse');
  return emit(
    cli,
    adapter.render(adapter.input(toolEvent, data), { deny: { rule: 'unknown-event', message: line }, log: [] }),
  );
}

function emit(cli: CommandIo, rendered: Rendered): number {
  if (rendered.stdout) cli.out(rendered.stdout);
  if (rendered.stderr) cli.err(rendered.stderr);
  return rendered.code;
}
