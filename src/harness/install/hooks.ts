/**
 * The hooks baton registers with Claude Code, read from the event registry (events.ts): the
 * plugin's `plugin/hooks/hooks.json` (committed; test/install/registry.test.ts fails until it
 * matches) and the settings entries `baton install claude` writes.
 */
import { EVENT_NAMES, EVENTS } from '../events.js';

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
 * The plugin's command prefix: its wrapper (plugin/bin/baton) around the CLI bundle committed in the
 * plugin, so nothing installs at hook time and a gated event fails closed when Node cannot run it.
 * Run by sh, so no executable bit has to survive the host's copy of the plugin.
 */
export const PLUGIN_CLI = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/baton"';
