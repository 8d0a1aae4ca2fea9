/**
 * The one registry of hook events baton handles. Everything else derives from it: the entries
 * `baton install claude` writes and the plugin's `hooks/hooks.json` (install/hooks.ts), the event
 * names each host adapter accepts (hosts/*.ts), the events a project's config sections turn on,
 * and which payloads are worth nothing when empty (harness-handlers.ts). A new event is one entry here,
 * its handler in harness-handlers.ts, and its name in the profiles that use it (src/project/profiles/).
 *
 * This module imports nothing: the hook front reads it before deciding whether to load anything.
 */
export type EventName =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'Stop'
  | 'SessionEnd';

export type HostName = 'claude' | 'codex' | 'gemini' | 'cursor';

export interface EventSpec {
  /** Claude Code matcher; narrow where the host filters on something useful (tool names). */
  matcher?: string;
  /** Seconds, as Claude Code reads them. */
  timeout: number;
  /** An empty or garbage payload leaves nothing to decide: exit 0 without loading the engine. */
  needsPayload: boolean;
  /** baton.config.json sections that turn the event on for a project without a profile. */
  sections: readonly string[];
  /** On for every project with a config, whatever its sections: baton's state rule guards the config itself. */
  everyConfig?: true;
  /** The host's own event names that arrive as this event; claude always uses the canonical name. */
  hosts: { codex?: readonly string[]; gemini?: readonly string[]; cursor?: readonly string[] };
  /**
   * The matcher `baton install <host>` writes for the other hosts, matched against the tool names
   * each host version really sends (recorded in test/fixtures/hosts/): Codex 0.171 reports its
   * shell as "Bash" and patches as "apply_patch", whatever the model called them.
   */
  hostMatchers?: { codex?: string; gemini?: string };
}

export const EVENTS: Readonly<Record<EventName, EventSpec>> = {
  SessionStart: {
    timeout: 5,
    needsPayload: false,
    sections: ['sessionStart'],
    hosts: { codex: ['SessionStart'], gemini: ['SessionStart'], cursor: ['sessionStart'] },
  },
  UserPromptSubmit: {
    timeout: 5,
    needsPayload: true,
    sections: ['audit'],
    hosts: { codex: ['UserPromptSubmit'], gemini: ['BeforeAgent'], cursor: ['beforeSubmitPrompt'] },
  },
  // The common tool calls (Read, Grep, Glob, ...) never start a Node process.
  PreToolUse: {
    matcher: 'Edit|Write|MultiEdit|NotebookEdit|Bash',
    timeout: 5,
    needsPayload: true,
    sections: ['rules'],
    everyConfig: true,
    hosts: { codex: ['PreToolUse'], gemini: ['BeforeTool'], cursor: ['preToolUse', 'beforeShellExecution'] },
    hostMatchers: { codex: '^(Bash|apply_patch)$', gemini: '^(write_file|replace|run_shell_command)$' },
  },
  // The work board tells a starting subagent its name on the board (its agent_id). Claude Code
  // 2.1.328 sends agent_id and agent_type, and hands additionalContext to the subagent (measured).
  SubagentStart: {
    timeout: 5,
    needsPayload: true,
    sections: [],
    hosts: {},
  },
  SubagentStop: {
    timeout: 10,
    needsPayload: true,
    sections: ['wave'],
    hosts: { codex: ['SubagentStop'], cursor: ['subagentStop'] },
  },
  PreCompact: {
    timeout: 15,
    needsPayload: false,
    sections: ['snapshot'],
    hosts: { codex: ['PreCompact'], gemini: ['PreCompress'], cursor: ['preCompact'] },
  },
  // Stop may run the project's verification commands (`stop.commands`, `stop.presets`).
  Stop: {
    timeout: 300,
    needsPayload: true,
    sections: ['stop'],
    hosts: { codex: ['Stop'], gemini: ['AfterAgent'], cursor: ['stop'] },
  },
  // The host gives SessionEnd hooks 1.5 s in total; baton does nothing slow there.
  SessionEnd: {
    timeout: 2,
    needsPayload: false,
    sections: [],
    hosts: { codex: ['SessionEnd'], gemini: ['SessionEnd'], cursor: ['sessionEnd'] },
  },
};

export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

/**
 * Events the hosts have that baton does not handle, on purpose: `baton hook` exits 0 silently for
 * them. Any other name is a configuration error (a typo in the host's settings, `pretooluse`),
 * which the hook front reports rather than letting a gate pass silently. Claude Code's list is the
 * one its 2.1 CLI validates settings against; the others are from each host's documentation.
 */
export const IGNORED_EVENTS: ReadonlySet<string> = new Set([
  // Claude Code
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptExpansion',
  'StopFailure',
  // Claude Code's is handled (EVENTS); Codex 0.171 and Cursor send one of their own too.
  'SubagentStart',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  // Gemini CLI
  'AfterTool',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  // Cursor
  'postToolUse',
  'postToolUseFailure',
  'subagentStart',
  'beforeReadFile',
  'afterFileEdit',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'afterAgentResponse',
  'afterAgentThought',
  'beforeTabFileRead',
  'afterTabFileEdit',
]);

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

/** Host event name -> canonical event, for one host. */
export function hostEvents(host: HostName): Record<string, EventName> {
  // No prototype: `baton hook toString` must not find Object.prototype's members.
  const table: Record<string, EventName> = Object.create(null) as Record<string, EventName>;
  for (const name of EVENT_NAMES) {
    const names = host === 'claude' ? [name] : (EVENTS[name].hosts[host] ?? []);
    for (const hostName of names) table[hostName] = name;
  }
  return table;
}

/** Events a project's own config sections ask for, on top of its profile's. */
export function configEvents(config: Record<string, unknown>): EventName[] {
  return EVENT_NAMES.filter(
    (name) =>
      EVENTS[name].everyConfig ||
      EVENTS[name].sections.some((section) => {
        const value = config[section];
        return Array.isArray(value) ? value.length > 0 : Boolean(value);
      }),
  );
}
