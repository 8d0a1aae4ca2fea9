/**
 * The hooks baton registers with Claude Code: one table for both faces, the plugin's
 * `plugin/hooks/hooks.json` (a test checks the committed file matches it) and the settings entries
 * `baton install claude` writes. Timeouts are in seconds, as the host reads them. Matchers are
 * narrow where the host filters on something useful (tool names), so the common tool calls (Read,
 * Grep, Glob, ...) never start a Node process; the other events have nothing worth filtering on.
 */
export interface HookSpec {
  event: string;
  matcher?: string;
  timeout: number;
}

export const HOOKS: readonly HookSpec[] = [
  { event: 'SessionStart', timeout: 5 },
  { event: 'UserPromptSubmit', timeout: 5 },
  { event: 'PreToolUse', matcher: 'Edit|Write|MultiEdit|NotebookEdit|Bash', timeout: 5 },
  { event: 'SubagentStop', timeout: 10 },
  { event: 'PreCompact', timeout: 15 },
  // Stop may run the project's verification commands (baton.config.json `stop.commands`).
  { event: 'Stop', timeout: 300 },
  // The host gives SessionEnd hooks 1.5 s in total; baton does nothing slow there.
  { event: 'SessionEnd', timeout: 2 },
];

export interface HookEntry {
  matcher?: string;
  hooks: { type: 'command'; command: string; timeout: number }[];
}

/** `{"<Event>": [{matcher?, hooks: [...]}]}` with `cli` as the command prefix (e.g. `node "/x/cli.js"`). */
export function hookEntries(cli: string): Record<string, HookEntry[]> {
  const table: Record<string, HookEntry[]> = {};
  for (const spec of HOOKS) {
    const hooks: HookEntry['hooks'] = [{ type: 'command', command: `${cli} hook ${spec.event}`, timeout: spec.timeout }];
    const entry: HookEntry = spec.matcher === undefined ? { hooks } : { matcher: spec.matcher, hooks };
    (table[spec.event] ??= []).push(entry);
  }
  return table;
}

/** The plugin's command prefix: the bundled CLI inside the plugin, so nothing installs at hook time. */
export const PLUGIN_CLI = 'node "${CLAUDE_PLUGIN_ROOT}/dist/cli.js"';
