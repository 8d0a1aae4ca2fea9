/**
 * Where line 2 reads its task document, and the status-line settings of `baton.config.json`.
 * The file and the root come from projectContext(), as for every face; the few fields needed are
 * read from the raw file (their shape is schemas/baton.config.schema.json): validating and merging
 * the full config (profiles, rules) would cost every refresh for two fields.
 *
 *   { "documents": { "task": { "path": "..." } } }   the task document, relative to the root
 *   { "stateDir": ".claude/state" }                  else current-task.json in this folder
 *   { "statusline": { "costEnv": "NAME" } }          variable that turns the cost segment on
 *   { "root": {...} } or { "profile": ... }         root markers (the eneo ones by default), see project/root.ts
 *   { "store": "postgres://..." }                    a shared store holds the task (BATON_STORE wins)
 */
import { isAbsolute, join } from 'node:path';
import { projectContext } from '../../project/project-context.js';
import type { Json } from '../../core/json.js';
import { DEFAULT_PROFILE } from '../../project/profiles/registry.js';
import { hooksFetch } from '../../stores/schemes.js';
import { DEFAULT_GIT_TIMEOUT_MS } from './git.js';
import { CONFIG_FILE_MAX_BYTES, readFileBounded } from '../../fs/bounded-read.js';

const DEFAULT_STATE_DIR = '.claude/state';
const TASK_FILE = 'current-task.json';
const DEFAULT_COST_ENV = 'ENEO_STATUSLINE_SHOW_COST';

export interface StatuslineConfig {
  /** The project root after root markers: the task path is relative to it. */
  root: string;
  task: string;
  costEnv: string;
  /** How long `git status` may take before the counts are left out (a big repo may need more). */
  gitTimeoutMs: number;
  /** A shared store whose rows, not this machine's files, are the documents (sharedTask reads it). */
  sharedStore?: string;
}

/** Project root: the payload's `workspace.project_dir`, else CLAUDE_PROJECT_DIR, else cwd. */
export function statusRoot(projectDir: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  return projectDir ?? (env.CLAUDE_PROJECT_DIR || cwd);
}

function readJson(path: string): Json | undefined {
  try {
    return JSON.parse(readFileBounded(path, CONFIG_FILE_MAX_BYTES, path, 'fix the file')) as Json;
  } catch {
    return undefined;
  }
}

function field(value: Json | undefined, key: string): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

function positiveInteger(value: Json | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function nonEmpty(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function readStatuslineConfig(
  configRoot: string,
  env: NodeJS.ProcessEnv = {},
  cwd = configRoot,
): StatuslineConfig {
  // Line 2 shows the Eneo task: with no profile configured, its root markers apply, as they do
  // for `baton task`, the compat scripts and `baton hook --profile eneo`. The config is read where
  // the payload's project_dir says, and the marker search starts there; BATON_ROOT, as everywhere,
  // turns the markers off (it names that folder, not another one).
  const { root, config: raw } = projectContext({
    cwd,
    env: { ...env, BATON_ROOT: env.BATON_ROOT ? configRoot : undefined, CLAUDE_PROJECT_DIR: configRoot },
    defaultProfile: DEFAULT_PROFILE,
  });
  const config = raw as Json;
  const taskPath = nonEmpty(field(field(field(config, 'documents'), 'task'), 'path'));
  const stateDir = nonEmpty(field(config, 'stateDir')) ?? DEFAULT_STATE_DIR;
  const store = env.BATON_STORE || nonEmpty(field(config, 'store'));
  return {
    root,
    ...(store !== undefined && hooksFetch(store) ? { sharedStore: store } : {}),
    task: taskPath ?? join(stateDir, TASK_FILE),
    costEnv: nonEmpty(field(field(config, 'statusline'), 'costEnv')) ?? DEFAULT_COST_ENV,
    gitTimeoutMs: positiveInteger(field(field(config, 'statusline'), 'gitTimeoutMs')) ?? DEFAULT_GIT_TIMEOUT_MS,
  };
}

/** A parsed document (the task, the board), or undefined when it is missing or not JSON (its line is then omitted). */
export function readDocument(config: StatuslineConfig, path: string): Json | undefined {
  return readJson(isAbsolute(path) ? path : join(config.root, path));
}
