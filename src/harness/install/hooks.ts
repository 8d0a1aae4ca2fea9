/**
 * The hooks baton registers with Claude Code, read from the event registry (events.ts): the
 * plugin's `plugin/hooks/hooks.json` (committed, written by `npm run generate`) and the settings entries `baton install claude` writes.
 */
import { EVENT_NAMES, EVENTS, type HostName } from '../hooks/events.js';

export interface HookSpec {
  event: string;
  matcher?: string;
  timeout: number;
}

export const HOOKS: readonly HookSpec[] = EVENT_NAMES.map((event) => {
  const { matcher, timeout } = EVENTS[event];
  return matcher === undefined ? { event, timeout } : { event, matcher, timeout };
});

export interface HookEntry {
  matcher?: string;
  hooks: { type: 'command'; command: string; timeout: number }[];
}

/** Cursor's entries are flat: `{"command"}` per hook, no matcher. */
export interface FlatHookEntry {
  command: string;
}

/** `{"<Event>": [{matcher?, hooks: [...]}]}` with `cli` as the command prefix (e.g. `node "/x/cli.js"`). */
export function hookEntries(cli: string): Record<string, HookEntry[]> {
  const table: Record<string, HookEntry[]> = {};
  for (const spec of HOOKS) {
    const hooks: HookEntry['hooks'] = [
      { type: 'command', command: `${cli} hook ${spec.event}`, timeout: spec.timeout },
    ];
    const entry: HookEntry = spec.matcher === undefined ? { hooks } : { matcher: spec.matcher, hooks };
    (table[spec.event] ??= []).push(entry);
  }
  return table;
}

/**
 * The entries for another host, in its own event names and settings shape: every host event the
 * registry maps (a host without an event, Gemini's SubagentStop, gets none), with the host's
 * matcher, `--host` on the command, and the timeout in the host's unit (Gemini: milliseconds).
 */
export function hostHookEntries(
  host: Exclude<HostName, 'claude'>,
  cli: string,
): Record<string, (HookEntry | FlatHookEntry)[]> {
  const table: Record<string, (HookEntry | FlatHookEntry)[]> = {};
  for (const event of EVENT_NAMES) {
    const spec = EVENTS[event];
    const matcher = host === 'cursor' ? undefined : spec.hostMatchers?.[host];
    const timeout = host === 'gemini' ? spec.timeout * 1000 : spec.timeout;
    for (const name of spec.hosts[host] ?? []) {
      const command = `${cli} hook ${name} --host ${host}`;
      if (host === 'cursor') {
        table[name] = [{ command }];
        continue;
      }
      const hooks: HookEntry['hooks'] = [{ type: 'command', command, timeout }];
      table[name] = [matcher === undefined ? { hooks } : { matcher, hooks }];
    }
  }
  return table;
}

/**
 * The plugin's command prefix: its wrapper (plugin/bin/baton) around the CLI bundle committed in the
 * plugin, so nothing installs at hook time and a gated event fails closed when Node cannot run it.
 * Run by sh, so no executable bit has to survive the host's copy of the plugin.
 */
export const PLUGIN_CLI = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/baton"';
