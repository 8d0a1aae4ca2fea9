/**
 * What every command accepts, in one place: the parser (args.ts), `baton help`, `--help` and the
 * reference page docs/cli.md (npm run generate, scripts/cli-docs.ts) are all made
 * from these entries, so they cannot drift apart. Plain data, made on first use; a command's bundle
 * carries only its own definitions (`<name>Definition`, scripts/cli-bundles.mjs), the `_main`
 * bundle (help, unknown commands) all of them.
 */
import { STORE_SCHEMES } from '../stores/schemes.js';

export interface OptionDef {
  /** `--name`; `short` is a one-letter alias such as `-r`. */
  readonly name: string;
  readonly short?: string;
  /** The value's placeholder (`WRITER`), or absent for a flag without a value. */
  readonly value?: string;
  /** May be given more than once: the parser collects every value, in order, into a list. */
  readonly repeat?: boolean;
  /** Internal (e.g. how the demo starts its agent processes): parsed, not shown in help. */
  readonly hidden?: boolean;
  readonly help: string;
}

export interface CommandDef<Options extends readonly OptionDef[] = readonly OptionDef[]> {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Synopsis lines after `baton <name> `; the first one is the short usage line. */
  readonly usage: readonly string[];
  /** How many positionals the parser takes (default: any number). */
  readonly positionals?: readonly [number, number];
  /** `--arg NAME VALUE` and `--argjson NAME JSON`, as jq takes them. */
  readonly vars?: boolean;
  readonly options: Options;
  /** Further help text: paragraphs shown by `baton help <name>` and in docs/cli.md. */
  readonly details?: string;
  /** The exit codes of a command that stands in for another tool (its face), in place of baton's own. */
  readonly exitCodes?: string;
  readonly subcommands?: Readonly<Record<string, { readonly usage: string; readonly summary: string }>>;
}

/**
 * The flags parseCommand() gives for a definition's options, typed from the definition itself:
 * `--name VALUE` is a string, a `repeat` option the list of its values, a switch `true`; any
 * option not given is absent. A command reads `flags.schema` with no `typeof` check, and a flag
 * its definition does not declare is a type error.
 */
export type Flags<Options extends readonly OptionDef[]> = {
  [O in Options[number] as O['name']]?: O extends { repeat: true }
    ? string[]
    : O extends { value: string }
      ? string
      : true;
};

/** pipeline-state.sh's exit codes, which `baton run`, `phase` and `gate` keep. */
const RUN_BUS_EXITS =
  '0 ok, 1 refused (a refusal of any kind, as pipeline-state.sh), 2 usage or jq syntax error, 5 writer not allowed (a sealed run field), 70 internal error';

const AS = {
  name: 'as',
  value: 'WRITER',
  help: 'the writer recorded in history (default: $BATON_WRITER, else the agent session)',
} as const satisfies OptionDef;
const JQ_VARS = [
  { name: 'arg', value: 'NAME VALUE', repeat: true, help: 'bind $NAME to the string VALUE' },
  { name: 'argjson', value: 'NAME JSON', repeat: true, help: 'bind $NAME to the JSON value' },
] as const satisfies readonly OptionDef[];
const JQ_BUDGET = [
  { name: 'jq-steps', value: 'N', help: 'stop a jq program after N evaluation steps' },
  { name: 'jq-timeout-ms', value: 'MS', help: 'stop a jq program after MS milliseconds' },
] as const satisfies readonly OptionDef[];
const JSON_OUT = { name: 'json', help: 'print JSON instead of text' } as const satisfies OptionDef;
const RUN_NAME = {
  name: 'name',
  value: 'N',
  help: 'the run document .ai_log/<N>-<session>.json instead of session-<session>.json',
} as const satisfies OptionDef;

/**
 * Adding a command: `<name>Definition` here, a function that returns its definition (name,
 * usage, positionals, options; `repeat: true` for an option given more than once), its entry in
 * `defs` below, and src/cli/commands/<name>.ts, whose default export starts with
 * `const { positionals, flags } = parseCommand(COMMANDS.<name>, args)` (a command that only reads:
 * `<name>Definition()`, so its bundle leaves the others' out): the flags are typed from
 * this entry (see Flags), so the file needs no parsing of its own and no `typeof` checks.
 * `as const` keeps each option's name and kind for those types.
 */
export const initDefinition = () =>
  ({
    name: 'init',
    summary: 'create a document (optionally bound to a schema)',
    usage: ['FILE [--schema NAME|PATH] [--arg N V]... [--argjson N J]... [--as WRITER] [--force]'],
    positionals: [1, 1],
    vars: true,
    options: [
      {
        name: 'schema',
        value: 'NAME|PATH',
        help: 'a built-in schema name or a JSON Schema file; the document is checked against it on every write',
      },
      ...JQ_VARS,
      AS,
      { name: 'force', help: 'replace an existing document (its history keeps the old one)' },
    ],
    details:
      "With a schema, the --arg/--argjson values fill the schema's template. Without one, they become the document's keys.",
  }) as const;
export const getDefinition = () =>
  ({
    name: 'get',
    summary: 'print values from a document through a jq expression',
    usage: ['FILE [JQ] [--arg N V]... [--argjson N J]... [--default VALUE] [-r|--raw]'],
    positionals: [1, 2],
    vars: true,
    options: [
      ...JQ_VARS,
      { name: 'default', value: 'VALUE', help: 'print VALUE for a missing document, a null or no result' },
      { name: 'raw', short: '-r', help: 'print strings without quotes' },
      ...JQ_BUDGET,
    ],
    details:
      'A safe read: a missing or malformed document prints the default (with a warning for a malformed one) and exits 0. A jq runtime error (`error("x")`, indexing a number) is an error of the expression: exit 2, as jq itself fails (jq exits 5).',
  }) as const;
export const updateDefinition = () =>
  ({
    name: 'update',
    summary: 'change a document with a jq expression, in one locked step',
    usage: ['FILE JQ [--arg N V]... [--argjson N J]... [--as WRITER] [--if-exists]'],
    positionals: [2, 2],
    vars: true,
    options: [
      ...JQ_VARS,
      AS,
      { name: 'if-exists', help: 'do nothing (exit 0) when the document does not exist' },
      ...JQ_BUDGET,
    ],
  }) as const;
export const setDefinition = () =>
  ({
    name: 'set',
    summary: 'set one field, without jq',
    usage: ['FILE PATH VALUE [--json] [--as WRITER]'],
    positionals: [3, 3],
    options: [{ name: 'json', help: 'VALUE is JSON (a number, true, an object...), not a string' }, AS],
    details:
      "PATH is dot-separated keys (phases.3-impl.status); a key of digits, or [N] (arr[0]), indexes an array. Without --json, VALUE takes the type the document's schema gives PATH (a number, a boolean), else the type of the value already there, else it is stored as a string.",
  }) as const;
export const appendDefinition = () =>
  ({
    name: 'append',
    summary: 'append a value to an array field, without jq',
    usage: ['FILE PATH VALUE [--json] [--as WRITER]'],
    positionals: [3, 3],
    options: [{ name: 'json', help: 'VALUE is JSON, not a string' }, AS],
    details:
      "Without --json, VALUE takes the type the schema gives the array's items, else that of its last item, else it is a string.",
  }) as const;
export const consumeDefinition = () =>
  ({
    name: 'consume',
    summary: 'print a field and set it to null, in one locked step',
    usage: ['FILE PATH [--as WRITER]'],
    positionals: [2, 2],
    options: [AS],
  }) as const;
export const clearDefinition = () =>
  ({
    name: 'clear',
    summary: 'delete a document (its history keeps it)',
    usage: ['FILE [--as WRITER]'],
    positionals: [1, 1],
    options: [AS],
  }) as const;
export const historyDefinition = () =>
  ({
    name: 'history',
    summary: 'list the revisions of a document, newest first',
    usage: ['FILE [--limit N] [--json]'],
    positionals: [1, 1],
    options: [{ name: 'limit', value: 'N', help: 'how many revisions (default 20)' }, JSON_OUT],
  }) as const;
export const showDefinition = () =>
  ({
    name: 'show',
    summary: 'print one revision of a document',
    usage: ['FILE --rev N'],
    positionals: [1, 1],
    options: [{ name: 'rev', value: 'N', help: 'the revision number (required; see baton history)' }],
  }) as const;
export const revertDefinition = () =>
  ({
    name: 'revert',
    summary: 'make an old revision the current document (a new revision)',
    usage: ['FILE --rev N [--as WRITER]'],
    positionals: [1, 1],
    options: [{ name: 'rev', value: 'N', help: 'the revision to restore (required)' }, AS],
  }) as const;
export const storeDefinition = () =>
  ({
    name: 'store',
    summary: 'the store itself: create PostgreSQL tables, export and import documents with history',
    usage: ['migrate', 'export [FILE]', 'import FILE|-'],
    positionals: [1, 2],
    options: [],
    details:
      "Works on the store chosen as every command chooses it (--store URL, BATON_STORE, store in baton.config.json, else the file store) and the project's documents there. An export is JSON Lines: a header, then one document a line with its stored text, metadata and every revision; an import writes them back exactly, so a round trip between the file store and PostgreSQL gives the same documents and history. An import is checked whole first and writes nothing when any of its documents exists already (exit 1). See docs/postgres.md.",
    subcommands: {
      migrate: {
        usage: 'migrate',
        summary: "create or upgrade the PostgreSQL store's tables (ordinary commands never do)",
      },
      export: { usage: 'export [FILE]', summary: 'write every document with its history to FILE (default stdout)' },
      import: { usage: 'import FILE|-', summary: 'write the documents of an export into this store (- reads stdin)' },
    },
  }) as const;
export const doctorDefinition = () =>
  ({
    name: 'doctor',
    summary: 'check every document, lock and history under a folder',
    usage: ['[DIR] [--json] [--repair]'],
    positionals: [0, 1],
    options: [JSON_OUT, { name: 'repair', help: 'apply the safe repairs (history kept), then check again' }],
    details: 'Exit 0 when every check passes, 1 when one fails; each failing row names its fix.',
  }) as const;
export const demoDefinition = () =>
  ({
    name: 'demo',
    summary: 'watch parallel agent processes share documents without losing an update',
    usage: ['[--dir DIR] [--keep] [--waves N] [--agents N] [--updates N]'],
    positionals: [0, 0],
    options: [
      { name: 'dir', value: 'DIR', help: 'run in DIR and keep its files (default: a temp folder, removed after)' },
      { name: 'keep', help: 'keep the temp folder' },
      { name: 'waves', value: 'N', help: 'waves of agents (default 3)' },
      { name: 'agents', value: 'N', help: 'agent processes per wave (default 4)' },
      { name: 'updates', value: 'N', help: 'updates per agent (default 5)' },
      { name: 'agent', value: 'NAME', hidden: true, help: 'run as one agent process' },
      { name: 'wave', value: 'N', hidden: true, help: "the agent's wave" },
    ],
  }) as const;
export const goalDefinition = () =>
  ({
    name: 'goal',
    summary: 'the goal workflow of the orchestrate design (state.md)',
    usage: ['start|resume|pause|close|list|touch|now|land|transcript ...'],
    options: [
      { name: 'since', value: 'ISO', help: 'transcript: only entries at or after this time' },
      { name: 'tail', value: 'N', help: 'transcript: only the last N lines' },
    ],
    exitCodes: "0 done, 1 refused (the message says why), 2 usage, 3 the user must choose (goal.sh's own)",
    subcommands: {
      start: { usage: 'start SLUG GOAL-SENTENCE', summary: 'create the goal folder and point at it' },
      resume: {
        usage: 'resume [SLUG]',
        summary: 'no slug: show the pointer or list goals (exit 3: choose); with one: point at it',
      },
      pause: { usage: 'pause', summary: 'mode off, goal kept (status=paused)' },
      close: { usage: 'close', summary: 'mark the goal closed and archive it' },
      list: { usage: 'list [--all]', summary: 'every goal with its status; --all lists stopped goals too' },
      touch: { usage: 'touch', summary: "set the state marker's updated= to now" },
      now: { usage: "now 'ENTRY'", summary: 'a launch: add the entry to Now' },
      land: {
        usage: "land LABEL ['DONE LINE']",
        summary: 'a return: drop the Now entry, optionally append a Done line',
      },
      transcript: {
        usage: 'transcript FILE.jsonl [--since ISO] [--tail N]',
        summary: 'the text of a session transcript',
      },
    },
  }) as const;
export const lintDefinition = () =>
  ({
    name: 'lint',
    summary: 'check a goal state.md (and its log) against the workflow rules',
    usage: ['STATE [LOG] [SIDECAR] [--json] [--fix]'],
    positionals: [1, 3],
    options: [JSON_OUT, { name: 'fix', help: 'apply the safe mechanical fixes under the state lock' }],
    details:
      'Exit 0 whatever it finds (findings are printed); 1 when STATE does not exist or is not a file; 2 for a usage error.',
  }) as const;
export const runDefinition = () =>
  ({
    name: 'run',
    summary: 'pipeline runs: the handoff document of a multi-phase pipeline',
    usage: [
      'init|set|append|get|clear|show SESSION [FIELD] [VALUE] [options]',
      'clean [SESSION] [--older-than 24h] [--force]',
    ],
    positionals: [0, 4],
    exitCodes: `${RUN_BUS_EXITS}; 4 unsafe input from clean, baton's own verb (a run folder linked out of the project)`,
    options: [
      RUN_NAME,
      { name: 'json', help: 'set/append: VALUE is JSON; show: print the run as JSON' },
      { name: 'number', help: 'set/append: VALUE is a number' },
      { name: 'allow-large', help: 'allow a value over the size limit' },
      { name: 'default', value: 'TEXT', help: 'get: print TEXT when the field is missing' },
      { name: 'contract', value: 'FILE', help: 'init: the phase contract (YAML or JSON)' },
      AS,
      { name: 'older-than', value: 'AGE', help: 'clean: only runs older than AGE (e.g. 24h)' },
      { name: 'force', help: 'clean: also runs that look active' },
    ],
    subcommands: {
      init: { usage: 'init SESSION [--contract FILE]', summary: 'create the run document' },
      set: { usage: 'set SESSION FIELD VALUE [--json|--number]', summary: 'set a field' },
      append: { usage: 'append SESSION FIELD VALUE [--json|--number]', summary: 'append to an array field' },
      get: { usage: 'get SESSION FIELD [--default TEXT]', summary: 'print a field' },
      clear: { usage: 'clear SESSION', summary: 'delete the run document' },
      show: { usage: 'show SESSION [--json]', summary: 'print the run: phases, gates, outputs' },
      clean: {
        usage: 'clean [SESSION] [--older-than 24h] [--force]',
        summary: 'sweep old run documents from .ai_log/',
      },
    },
  }) as const;
export const phaseDefinition = () =>
  ({
    name: 'phase',
    summary: 'start and finish the phases of a pipeline run',
    usage: [
      'start RUN PHASE --agent A [--rerun]',
      'done RUN PHASE [--output KEY=VALUE]... [--evidence PATH]... [--work-item PATH]... [--also FIELD] [--json] [--promote] [--allow-large]',
      'get RUN PHASE [FIELD]',
      'inputs RUN PHASE',
    ],
    positionals: [3, 4],
    options: [
      { name: 'agent', value: 'A', help: 'start: the agent running the phase' },
      { name: 'rerun', help: 'start: run a finished phase again' },
      { name: 'output', value: 'KEY=VALUE', repeat: true, help: 'done: an output of the phase' },
      { name: 'evidence', value: 'PATH', repeat: true, help: 'done: a file that proves the work' },
      { name: 'work-item', value: 'PATH', repeat: true, help: 'done: a file the phase produced' },
      { name: 'also', value: 'FIELD', help: 'done: also set this field' },
      { name: 'json', help: 'done: output values are JSON' },
      { name: 'promote', help: "done: copy outputs to the run's top level" },
      { name: 'allow-large', help: 'allow a value over the size limit' },
      RUN_NAME,
      AS,
    ],
    details: 'RUN is the session label or the .ai_log/session-<label>.json path.',
    exitCodes: RUN_BUS_EXITS,
    subcommands: {
      start: { usage: 'start RUN PHASE --agent A [--rerun]', summary: 'mark a phase started' },
      done: {
        usage: 'done RUN PHASE [--output KEY=VALUE]... [--evidence PATH]...',
        summary: 'record a phase as done, with its outputs',
      },
      get: { usage: 'get RUN PHASE [FIELD]', summary: 'print a phase entry or one of its fields' },
      inputs: {
        usage: 'inputs RUN PHASE',
        summary: 'the inputs a phase needs, and whether they are there (exit 1 if not)',
      },
    },
  }) as const;
export const gateDefinition = () =>
  ({
    name: 'gate',
    summary: "check a phase's evidence on disk: exit 0 when it holds, 1 when not",
    usage: ['RUN PHASE [--name N] [--json]'],
    positionals: [2, 2],
    options: [RUN_NAME, JSON_OUT, AS],
    exitCodes: RUN_BUS_EXITS,
  }) as const;
export const workDefinition = () =>
  ({
    name: 'work',
    summary: 'the work board of parallel agents: items, claims with leases, barriers',
    usage: [
      'add ID --title T [--after ID]... [--paths GLOB]... [--field KEY=VALUE]...',
      'claim [ID] [--as AGENT] [--lease SECONDS]',
      'heartbeat|done|release ID [--as AGENT] [--token N]',
      'block ID [--as AGENT] --reason TEXT',
      'wait ID... (--all|--any|--at-least N) --timeout SECONDS [--json]',
      'ready|show [ID]|reopen ID [--json]',
    ],
    positionals: [1, 1000],
    options: [
      { name: 'title', value: 'T', help: 'add: what the item is' },
      { name: 'after', value: 'ID', repeat: true, help: 'add: an item that must be done first' },
      {
        name: 'paths',
        value: 'GLOB',
        repeat: true,
        help: 'add: a path the item may write, reserved while it is claimed',
      },
      { name: 'field', value: 'KEY=VALUE', repeat: true, help: 'add: a free field of the item' },
      {
        name: 'as',
        value: 'AGENT',
        help: "the agent claiming or holding the item (default: BATON_AGENT, which baton's hook sets for an agent's shell call; another name is refused)",
      },
      { name: 'lease', value: 'SECONDS', help: 'claim: how long the claim holds without a heartbeat (default 900)' },
      { name: 'token', value: 'N', help: 'heartbeat, done, block, release: the claim printed by claim --json' },
      { name: 'reason', value: 'TEXT', help: 'block: why the item cannot go on' },
      { name: 'all', help: 'wait: until every item is done' },
      { name: 'any', help: 'wait: until one item is done' },
      { name: 'at-least', value: 'N', help: 'wait: until N of the items are done' },
      { name: 'timeout', value: 'SECONDS', help: 'wait: give up after SECONDS (exit 1, the partial result)' },
      JSON_OUT,
    ],
    details:
      "The board is the document .claude/state/board.json, on the project's store; only baton work changes its items. A claim is atomic on every store: of any number of racing claimants exactly one wins. An expired lease may be taken over, and the old claimant's heartbeat and done are refused from then on. wait blocks on the store's watch (no polling). Inside an agent host, baton's PreToolUse hook exports the calling agent's name (BATON_AGENT) and session (BATON_SESSION) to a shell call that runs baton work: --as may be left out, another name is refused, and the claim ends when that agent (SubagentStop) or session (SessionEnd) ends. docs/work-board.md has a worked example.",
    exitCodes:
      "0 ok; 1 refused: claim got nothing (lost the race, nothing ready), done/heartbeat/block/release without a live claim, wait timed out (the partial result is printed); 2 usage; 5 --as names another agent than BATON_AGENT; baton's other codes as usual",
    subcommands: {
      add: {
        usage: 'add ID --title T [--after ID]... [--paths GLOB]... [--field KEY=VALUE]...',
        summary: 'put an item on the board',
      },
      ready: { usage: 'ready [--json]', summary: 'the items that can be claimed now' },
      claim: {
        usage: 'claim [ID] --as AGENT [--lease SECONDS] [--json]',
        summary: 'claim an item (the first ready one without ID); prints its id',
      },
      heartbeat: { usage: 'heartbeat ID --as AGENT [--token N]', summary: 'renew your lease' },
      done: { usage: 'done ID --as AGENT [--token N]', summary: 'finish the item you hold' },
      block: { usage: 'block ID --as AGENT --reason TEXT', summary: 'give the item back as blocked' },
      release: { usage: 'release ID --as AGENT [--token N]', summary: 'give the item back, still open' },
      reopen: { usage: 'reopen ID', summary: 'open a blocked or done item again (a held item: only its holder)' },
      wait: {
        usage: 'wait ID... (--all|--any|--at-least N) --timeout SECONDS [--json]',
        summary: 'block until the items are done: exit 0 met, 1 at the timeout',
      },
      show: { usage: 'show [ID] [--json]', summary: 'the board, or one item' },
    },
  }) as const;
export const taskDefinition = () =>
  ({
    name: 'task',
    summary: 'Eneo task state (what compat/eneo/lib/state.sh runs)',
    usage: ['init|update|get|phase-set|next-hint-consume|clear|wave-start|path|lock|unlock ...'],
    options: [
      { name: 'if-exists', help: 'update: do nothing (exit 0) when there is no task' },
      { name: 'default', value: 'TEXT', help: 'get: print TEXT for a missing task, a null or no result' },
      { name: 'total', value: 'N', help: 'wave-start: the number of waves' },
      { name: 'agents', value: 'JSON', help: 'wave-start: the agent types of the wave, a JSON array' },
      { name: 'pid', value: 'PID', help: 'lock: the process the lock is recorded as (default: the caller)' },
    ],
    details:
      "Options are read as the Eneo helpers pass them: an option's value is the next word, whatever it starts with, and values after -- are taken literally.",
    exitCodes: "0 done, 1 refused, 2 usage, 3 no current task (the Eneo helpers' own)",
    subcommands: {
      init: { usage: 'init SLUG LANE BRACKET TENANCY AUDIT', summary: 'start a task' },
      update: { usage: 'update [--if-exists] -- EXPR [NAME VALUE]...', summary: 'jq update of the task' },
      get: { usage: 'get EXPR [--default TEXT]', summary: 'jq read of the task' },
      'phase-set': { usage: 'phase-set RED|GREEN|REFACTOR|FREE', summary: 'set the TDD phase' },
      'next-hint-consume': { usage: 'next-hint-consume', summary: 'print and clear the next hint' },
      clear: { usage: 'clear', summary: 'delete the task document' },
      'wave-start': {
        usage: 'wave-start WAVE EXPECTED [--total N] [--agents JSON]',
        summary: 'open a wave of parallel agents',
      },
      path: { usage: 'path task|phase|wave|locks', summary: 'print a state path' },
      lock: { usage: 'lock NAME [--pid PID]', summary: 'take a named lock' },
      unlock: { usage: 'unlock HANDLE', summary: 'release a named lock' },
    },
  }) as const;
export const hookDefinition = () =>
  ({
    name: 'hook',
    summary: "answer an agent host's hook event (the payload on stdin)",
    usage: ['EVENT [--profile NAME] [--host claude|codex|gemini|cursor]'],
    options: [
      { name: 'profile', value: 'NAME', help: "the hook profile (default: baton.config.json's)" },
      { name: 'host', value: 'HOST', help: 'the payload protocol: claude (default), codex, gemini or cursor' },
    ],
    details: 'A hook never fails its host: odd input exits 0. See docs/hooks.md.',
  }) as const;
export const mcpDefinition = () =>
  ({
    name: 'mcp',
    summary: "serve baton's tools to an agent over MCP (stdio)",
    usage: ['[--as WRITER]'],
    positionals: [0, 0],
    options: [
      {
        name: 'as',
        value: 'WRITER',
        help: 'the writer recorded in history (default: $BATON_WRITER, else mcp:<client name>)',
      },
    ],
    details:
      "Tools: init, get, update, set, consume, history, phase, gate, goal, lint, work. A failed call is a tool error whose text starts with baton's error code. Setup for Claude Code, Codex and Gemini: docs/mcp.md.",
  }) as const;
export const uiDefinition = () =>
  ({
    name: 'ui',
    summary: "a live dashboard of the project's documents in the browser",
    usage: ['[--port N] [--host ADDR] [--token T] [--allow-writes] [--as WRITER]'],
    positionals: [0, 0],
    options: [
      { name: 'port', value: 'N', help: 'the port to listen on (default: a free one)' },
      { name: 'host', value: 'ADDR', help: 'the address to bind (default 127.0.0.1); any other needs a token' },
      {
        name: 'token',
        value: 'T',
        help: 'the token every request must carry (default: generated when --host is not loopback)',
      },
      { name: 'allow-writes', help: 'allow reverting a document from the page (read-only otherwise)' },
      { name: 'as', value: 'WRITER', help: 'the writer recorded for a revert from the page (default ui)' },
    ],
    details:
      'Prints the URL and serves until interrupted. Tasks, runs (.ai_log/), goals and every other document, newest first; history with a diff per revision; the page follows changes live. See docs/ui.md.',
  }) as const;
export const serveDefinition = () =>
  ({
    name: 'serve',
    summary: 'answer hooks, MCP and the dashboard from one resident process for this project (HTTP on 127.0.0.1)',
    usage: ['[--port N] [--idle-timeout SECONDS] [--detach] [--allow-writes]'],
    positionals: [0, 0],
    options: [
      { name: 'port', value: 'N', help: 'the port to listen on (default 0: a free one)' },
      {
        name: 'idle-timeout',
        value: 'SECONDS',
        help: 'end after this long without a request (default 3600; 0 never)',
      },
      { name: 'detach', help: 'start it in the background and return once it answers' },
      { name: 'allow-writes', help: 'allow reverting a document from the dashboard (read-only otherwise)' },
    ],
    details:
      "Prints 'baton serve: http://127.0.0.1:PORT' first and serves until idle or interrupted; .baton/serve.json (0600) holds its url, pid, token and version. POST /hooks/EVENT with the hook's JSON and 'Authorization: Bearer TOKEN' answers what 'baton hook EVENT' prints; {url}/mcp is the MCP server over streamable HTTP (same token), and the second line is the dashboard's URL (its key is exchanged for a cookie). A second start prints the running server's lines. See docs/serve.md.",
  }) as const;
export const statuslineDefinition = () =>
  ({
    name: 'statusline',
    summary: "Claude Code's status line (the status JSON on stdin)",
    usage: [''],
    options: [],
    details: 'Prints one or two rows and exits 0 whatever happens; other arguments are ignored.',
  }) as const;
export const installDefinition = () =>
  ({
    name: 'install',
    summary: "write baton's hooks into an agent host's settings (Claude Code, Codex, Gemini CLI, Cursor)",
    usage: [
      'claude [--project|--user] [--command CMD] [--no-statusline] [--replace-statusline] [--serve] [--remove] [--dry-run]',
      'codex|gemini|cursor [--project|--user] [--command CMD] [--remove] [--dry-run]',
    ],
    positionals: [1, 1],
    options: [
      {
        name: 'project',
        help: "this project's .claude/settings.json, .codex/hooks.json, .gemini/settings.json or .cursor/hooks.json (the default)",
      },
      {
        name: 'user',
        help: 'the same file in ~/.claude ($CLAUDE_CONFIG_DIR), ~/.codex ($CODEX_HOME), ~/.gemini or ~/.cursor, for every project',
      },
      { name: 'command', value: 'CMD', help: "the command the hooks run (default: this install's bin/baton.js)" },
      { name: 'no-statusline', help: 'leave the status line alone' },
      { name: 'replace-statusline', help: "replace a status line that is not baton's" },
      {
        name: 'serve',
        help: 'claude: each session starts baton serve (env BATON_SERVE=1), which answers the hooks (docs/serve.md)',
      },
      { name: 'remove', help: "remove baton's entries" },
      { name: 'dry-run', help: 'print the settings that would be written' },
    ],
  }) as const;
const defs = {
  init: initDefinition,
  get: getDefinition,
  update: updateDefinition,
  set: setDefinition,
  append: appendDefinition,
  consume: consumeDefinition,
  clear: clearDefinition,
  history: historyDefinition,
  show: showDefinition,
  revert: revertDefinition,
  store: storeDefinition,
  doctor: doctorDefinition,
  demo: demoDefinition,
  goal: goalDefinition,
  lint: lintDefinition,
  run: runDefinition,
  phase: phaseDefinition,
  gate: gateDefinition,
  work: workDefinition,
  task: taskDefinition,
  hook: hookDefinition,
  mcp: mcpDefinition,
  ui: uiDefinition,
  serve: serveDefinition,
  statusline: statuslineDefinition,
  install: installDefinition,
} satisfies Record<string, () => CommandDef>;

/** Options taken before the command name, for every command: `baton --store URL get FILE`. */
export const GLOBAL_OPTIONS: readonly OptionDef[] = [
  {
    name: 'store',
    value: 'URL',
    help: `where documents live: ${STORE_SCHEMES}; default $BATON_STORE, else "store" in baton.config.json. Sets BATON_STORE for the command and what it starts`,
  },
];

type Defs = typeof defs;

const made: Partial<Record<keyof Defs, CommandDef>> = {};
const definition = (name: keyof Defs): CommandDef => (made[name] ??= defs[name]());

/**
 * Every command's definition by name, each with its own option types (`COMMANDS.get`). Each is
 * made on first use: a process runs one command, and making all of them (objects, option lists,
 * help text) at start cost every command and hook ~1.1 M instructions (~1.3% of a bare Node start,
 * callgrind; docs/benchmarks.md).
 */
// Pure (no statement at the top level reads `defs`): a bundle that imports only its own command's
// definition (a get: getDefinition) leaves every other one out (scripts/cli-bundles.mjs).
export const COMMANDS = /* @__PURE__ */ madeOnFirstUse();

function madeOnFirstUse() {
  const commands = {} as { readonly [N in keyof Defs]: ReturnType<Defs[N]> };
  for (const name of Object.keys(defs) as (keyof Defs)[])
    Object.defineProperty(commands, name, { get: () => definition(name), enumerable: true });
  return commands;
}

/** Every command's definition, in the order help lists them. */
export function allCommands(): readonly CommandDef[] {
  return (Object.keys(defs) as (keyof Defs)[]).map(definition);
}

/** The definition of a command named at run time (argv, `baton help NAME`); inherited keys are no command. */
export function commandNamed(name: string): CommandDef | undefined {
  return Object.hasOwn(defs, name) ? definition(name as keyof Defs) : undefined;
}

/** The definitions runCli reads: a command's (help, the unknown-command check) and the list's. */
export interface Definitions {
  named(name: string): CommandDef | undefined;
  all(): readonly CommandDef[];
  /**
   * Only the commands of one bundle: main.ts sends every other word to `_main`, so a name not here
   * is the build's mistake (a bundle map that does not match its bundles), not the user's.
   */
  own?: true;
}

/** Every command's: the CLI's `_main` bundle, baton serve, the tests in process. */
export const ALL_DEFINITIONS: Definitions = { named: commandNamed, all: allCommands };

/** The definitions of the commands a bundle carries (each made on each use: a process runs one). */
export function definitionsOf(made: Readonly<Record<string, () => CommandDef>>): Definitions {
  return {
    named: (name) => (Object.hasOwn(made, name) ? (made[name] as () => CommandDef)() : undefined),
    all: () => Object.values(made).map((make) => make()),
    own: true,
  };
}

export const EXIT_CODES =
  '0 ok, 1 refused, 2 usage or jq error, 3 schema violation, 4 unsafe input, 5 writer not allowed, 6 lock timeout or lost, 7 corrupt document, 8 I/O error, 70 internal error';

/** The short usage line(s): `usage: baton NAME ...`. */
export function usageLine(def: CommandDef, sub?: string): string {
  const lines = sub && def.subcommands?.[sub] ? [def.subcommands[sub].usage] : def.usage;
  return lines
    .map((line, i) => `${i === 0 ? 'usage:' : '      '} baton ${def.name}${line ? ` ${line}` : ''}`)
    .join('\n');
}

/** The one usage line shown under a usage error. */
export function errorUsage(def: CommandDef): string {
  if (def.usage.length === 1) return usageLine(def);
  return `usage: baton ${def.name} ${Object.keys(def.subcommands ?? {}).join('|')} ...   (baton help ${def.name})`;
}

/** The help a command prints for --help, -h and `baton help NAME [SUB]`. */
export function helpText(def: CommandDef, sub?: string): string {
  const parts = [usageLine(def, sub), '', sub && def.subcommands?.[sub] ? def.subcommands[sub].summary : def.summary];
  if (def.details && !sub) parts.push('', def.details);
  if (def.subcommands && !sub) {
    const width = Math.max(...Object.keys(def.subcommands).map((name) => name.length));
    parts.push(
      '',
      'commands:',
      ...Object.entries(def.subcommands).map(([name, s]) => `  ${name.padEnd(width)}  ${s.summary}`),
    );
  }
  const shown = def.options.filter((option) => !option.hidden);
  if (shown.length > 0) {
    const labels = shown.map(optionLabel);
    const width = Math.max(...labels.map((label) => label.length));
    parts.push('', 'options:', ...shown.map((option, i) => `  ${(labels[i] as string).padEnd(width)}  ${option.help}`));
  }
  parts.push('', `exit codes: ${def.exitCodes ?? EXIT_CODES}`);
  return `${parts.join('\n')}\n`;
}

export function optionLabel(option: OptionDef): string {
  return `${option.short ? `${option.short}, ` : ''}--${option.name}${option.value ? ` ${option.value}` : ''}${option.repeat ? '...' : ''}`;
}

/** `baton --help`: every command with its summary. */
export function commandList(commands: readonly CommandDef[]): string {
  const width = Math.max(...commands.map((def) => def.name.length));
  return [
    'usage: baton [--store URL] <command> [args]     baton help <command>     baton <command> --help',
    '',
    ...commands.map((def) => `  ${def.name.padEnd(width)}  ${def.summary}`),
    '',
    'Every command takes -h/--help. --version prints the version.',
    ...GLOBAL_OPTIONS.map((option) => `${optionLabel(option)}: ${option.help}.`),
    `exit codes: ${EXIT_CODES}`,
    '',
  ].join('\n');
}
