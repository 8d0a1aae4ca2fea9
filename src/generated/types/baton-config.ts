// Generated from schemas/baton.config.schema.json by npm run generate. Do not edit.

/**
 * Accepted words; anything else reads as empty, so a garbled mirror never gates.
 */
export type Strings = string[];
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "strings".
 */
export type Strings1 = string[];
/**
 * Patterns or class names never blocked by a path rule; checked first.
 */
export type Strings2 = string[];
/**
 * Only for these canonical tool names (e.g. ["Write"]); default: every tool of the kind.
 */
export type Strings3 = string[];
/**
 * Path classes (names in pathClasses) or globs; the path must match one.
 */
export type Strings4 = string[];
/**
 * Globs or classes the path must also match.
 */
export type Strings5 = string[];
/**
 * Globs or classes that exempt a path from this rule.
 */
export type Strings6 = string[];
/**
 * Ids of the profile's rules to switch off.
 */
export type Strings7 = string[];
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "positiveInteger".
 */
export type PositiveInteger = number;
/**
 * Doctor: files the project expects (e.g. the context file).
 */
export type Strings8 = string[];
/**
 * Allowed values of one classification field: a list of values, or an integer range.
 *
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "classRule".
 */
export type ClassRule =
  | (string | number)[]
  | {
      min?: number;
      max?: number;
    };
/**
 * Folders, relative to the start folder, to look for a marker in.
 */
export type Strings9 = string[];

/**
 * baton.config.json at the project root: the hook profile and what a project adds to it or changes (docs/profiles.md). Every section is optional.
 */
export interface BatonConfig {
  /**
   * The schema editors check this file against, e.g. ./node_modules/baton-state/schemas/baton.config.schema.json.
   */
  $schema?: string;
  /**
   * Free text for the people who read this file.
   */
  description?: string;
  /**
   * The built-in profile the rest of the file adds to or changes: eneo (the Eneo harness), orchestrate (the goal workflow), tdd (the TDD gates and wave barrier of the plugin's task commands).
   */
  profile?: 'eneo' | 'orchestrate' | 'tdd';
  /**
   * Folder of the task document, its mirror and wave.json, relative to the project root (eneo: .claude/state).
   */
  stateDir?: string;
  /**
   * Where documents live when neither --store nor BATON_STORE says: file: (the default), memory:, postgres://USER@HOST/DB (or postgresql://).
   */
  store?: string;
  /**
   * Documents the rules read, by name ("task" is the task document).
   */
  documents?: {
    [k: string]: DocumentConfig;
  };
  /**
   * Named lists of path patterns, shared by edit rules and bash rules.
   */
  pathClasses?: {
    [k: string]: Strings1;
  };
  allow?: Strings2;
  /**
   * PreToolUse policy rules; a rule with a profile rule's id replaces it.
   */
  rules?: RuleConfig[];
  disable?: Strings7;
  /**
   * What SessionStart reports: the log prefix and the project's context file.
   */
  sessionStart?: {
    prefix: string;
    contextFile?: string;
  };
  /**
   * The prompt audit log: its file, how many lines it keeps, its log prefix.
   */
  audit?: {
    file: string;
    maxLines: PositiveInteger;
    prefix: string;
  };
  /**
   * The wave barrier: the wave file and how long a SubagentStop waits for its lock.
   */
  wave?: {
    file: string;
    lockTimeoutMs: PositiveInteger;
  };
  /**
   * PreCompact: the scratchpads copied to dest, and the documents saved as a revision.
   */
  snapshot?: {
    scratchpads: Strings1;
    dest: string;
    documents: Strings1;
  };
  stop?: StopConfig;
  /**
   * Doctor: lane -> paths of which one must exist for a task in that lane ({slug} filled in).
   */
  lanes?: {
    [k: string]: Strings1;
  };
  requiredFiles?: Strings8;
  /**
   * Task document field -> allowed values, checked on every write of the task; null lifts a profile's rule.
   */
  classification?: {
    [k: string]: null | ClassRule;
  };
  root?: RootConfig;
  /**
   * Status line settings: the variable that turns the cost on, and how long git status may take.
   */
  statusline?: {
    /**
     * Name of the environment variable that shows the cost.
     */
    costEnv?: string;
    /**
     * Milliseconds git status may take before the counts are left out (default 150).
     */
    gitTimeoutMs?: number;
  };
  /**
   * How a deny or a Stop block is answered: json (default; the host's structured decision, exit 0) or exit2 (the reason on stderr, exit 2).
   */
  denyProtocol?: 'json' | 'exit2';
  /**
   * The shell analysis. strict (default true): a command whose writes cannot be resolved is denied when it names a path a rule protects now.
   */
  shell?: {
    strict?: boolean;
  };
  /**
   * The project id that scopes this project's documents in a shared store such as PostgreSQL (default: the git remote's URL, else the root's real path; BATON_PROJECT overrides it).
   */
  project?: string;
  limits?: LimitsConfig;
}
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "document".
 */
export interface DocumentConfig {
  /**
   * Path of the document, relative to the project root.
   */
  path: string;
  /**
   * A built-in schema name or a schema file.
   */
  schema?: string;
  /**
   * Fields whose value is also kept in a small text file, read instead of the JSON when gating.
   */
  mirrors?: {
    [k: string]: MirrorConfig;
  };
}
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "mirror".
 */
export interface MirrorConfig {
  /**
   * Path of the one-word mirror file, relative to the project root.
   */
  file: string;
  /**
   * What a missing or empty mirror means.
   */
  empty: string;
  values?: Strings;
}
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "rule".
 */
export interface RuleConfig {
  /**
   * Names the rule in deny messages.
   */
  id: string;
  /**
   * edit: file-editing tools; bash: shell commands (their write targets); both.
   */
  on: 'edit' | 'bash' | 'both';
  tools?: Strings3;
  when?: Condition;
  paths?: Strings4;
  also?: Strings5;
  unless?: Strings6;
  /**
   * Only recursive deletions count (rm -r, find -delete, git clean, mv of a folder).
   */
  bulkDelete?: boolean;
  /**
   * A regular expression tested against each line of a shell command.
   */
  command?: string;
  /**
   * Text of the deny reason; {slug}, {file}, {rule}, {tool} are filled in.
   */
  message?: string | Strings1;
}
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "condition".
 */
export interface Condition {
  /**
   * Document name in documents (default task).
   */
  doc?: string;
  field: string;
  in: Strings1;
}
/**
 * The Stop gate; merged key by key over the profile's.
 *
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "stop".
 */
export interface StopConfig {
  /**
   * The project's verification commands, run in order after the presets.
   */
  commands?: StopCommand[];
  /**
   * Built-in checks: ratchet (coverage and mutation floors), typecheck (changed Python files).
   */
  presets?: ('ratchet' | 'typecheck')[];
  /**
   * Keep the main agent from stopping mid-wave: incomplete, blocked (only on BLOCKED), off.
   */
  waveGate?: 'incomplete' | 'blocked' | 'off';
  /**
   * Keep the main agent from stopping while work-board items are open: pending (any not done), held (any an agent holds), off.
   */
  boardGate?: 'pending' | 'held' | 'off';
}
/**
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "stopCommand".
 */
export interface StopCommand {
  name: string;
  /**
   * A shell command; the Stop gate blocks when it fails.
   */
  run: string;
  timeoutSec?: PositiveInteger;
  when?: Condition;
}
/**
 * Project-root markers: the state lives where a marker is found (docs/profiles.md).
 *
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "root".
 */
export interface RootConfig {
  markers: Strings1;
  nested?: Strings9;
  /**
   * Absolute folders to look for a marker in.
   */
  fallbacks?: string[];
}
/**
 * Budgets and size limits of every write and every jq run (docs/guarantees.md).
 *
 * This interface was referenced by `BatonConfig`'s JSON-Schema
 * via the `definition` "limits".
 */
export interface LimitsConfig {
  /**
   * Evaluation steps one jq run may take.
   */
  jqSteps?: number;
  /**
   * Milliseconds one jq run may take.
   */
  jqTimeoutMs?: number;
  /**
   * Deepest nesting of arrays and objects in a document; at most 1000 (deeper overflows the stack).
   */
  maxDepth?: number;
  /**
   * Largest document, in characters of compact JSON.
   */
  maxDocumentBytes?: number;
}
