/**
 * The shape of `baton.config.json` (and of a built-in profile, which is the same thing shipped
 * inside baton). Every section is optional; a hook only runs for events some section needs.
 */
import type { RootConfig } from '../project/root.js';

export interface MirrorConfig {
  /** Path of the one-word mirror file, relative to the project root. */
  file: string;
  /** What a missing or empty mirror means. */
  empty: string;
  /** Accepted words; anything else reads as `empty` (so a garbled mirror never gates). */
  values?: string[];
}

export interface DocumentConfig {
  path: string;
  schema?: string;
  /** Fields whose value is also kept in a small text file, read instead of the JSON when gating. */
  mirrors?: Record<string, MirrorConfig>;
}

export interface Condition {
  /** Document name in `documents` (default `task`). */
  doc?: string;
  field: string;
  in: string[];
}

export interface RuleConfig {
  id: string;
  /** edit: file-editing tools; bash: shell commands (their write targets); both. */
  on: 'edit' | 'bash' | 'both';
  /** Only for these canonical tool names (e.g. ["Write"]); default: every tool of the kind. */
  tools?: string[];
  when?: Condition;
  /** Path classes (names in `pathClasses`) or globs; the path must match one. */
  paths?: string[];
  /** Globs or classes the path must also match. */
  also?: string[];
  /** Globs or classes that exempt a path from this rule. */
  unless?: string[];
  /** Only recursive deletions count (rm -r, find -delete, git clean, mv of a folder): bulk removal. */
  bulkDelete?: boolean;
  /** A regular expression tested against each line of a shell command. */
  command?: string;
  /** Text of the deny reason; `{slug}`, `{file}`, `{rule}`, `{tool}` are filled in. */
  message?: string | string[];
}

export interface StopCommand {
  name: string;
  run: string;
  timeoutSec?: number;
  when?: Condition;
}

export interface StopConfig {
  /** The project's verification commands, run in order after the presets. */
  commands?: StopCommand[];
  /** Built-in checks: `ratchet` (coverage/mutation floors), `typecheck` (changed Python files). */
  presets?: ('ratchet' | 'typecheck')[];
  /** Keep the main agent from stopping mid-wave: `incomplete`, `blocked` (only on BLOCKED), `off`. */
  waveGate?: 'incomplete' | 'blocked' | 'off';
}

/**
 * Allowed values of one classification field of the task document: a list
 * of values, or an integer range. Fields with no entry (or null, which lifts a profile's rule)
 * accept anything of their schema type.
 */
export type ClassRule = (string | number)[] | { min?: number; max?: number };

export interface HarnessConfig {
  profile?: string;
  /** The folder holding the task document, its mirror and wave.json. */
  stateDir: string;
  documents: Record<string, DocumentConfig>;
  pathClasses: Record<string, string[]>;
  /** Globs or classes never blocked by a path rule (checked first). */
  allow: string[];
  rules: RuleConfig[];
  /** Rule ids of the profile to switch off. */
  disable: string[];
  sessionStart?: { prefix: string; contextFile?: string };
  audit?: { file: string; maxLines: number; prefix: string };
  wave?: { file: string; lockTimeoutMs: number };
  snapshot?: { scratchpads: string[]; dest: string; documents: string[] };
  stop?: StopConfig;
  /** Doctor: lane -> paths of which one must exist for a task in that lane ({slug} filled in). */
  lanes?: Record<string, string[]>;
  /** Doctor: files the project expects (e.g. the context file). */
  requiredFiles?: string[];
  /** Task document field -> allowed values, checked on every `baton task` write. */
  classification?: Record<string, ClassRule | null>;
  /** Project-root markers; see root.ts. */
  root?: RootConfig;
  /**
   * How a deny or a Stop block is answered: `json` (default; Claude Code's structured decision,
   * exit 0) or `exit2` (the reason on stderr and exit 2, for hosts and scripts that expect it).
   */
  denyProtocol?: 'json' | 'exit2';
  /**
   * The shell analysis (docs/gates.md). strict (default): a command whose writes baton cannot
   * resolve (`$(...)`, eval, a variable set elsewhere, a one-liner that writes) is denied when it
   * names a path a rule protects now; false allows it.
   */
  shell?: { strict?: boolean };
  /** Status line settings (read by the status line itself, see statusline/task.ts). */
  statusline?: { costEnv?: string; gitTimeoutMs?: number };
}

export type ConfigInput = Partial<HarnessConfig> & Record<string, unknown>;
