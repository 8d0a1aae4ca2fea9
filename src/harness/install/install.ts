/**
 * `baton install claude|codex|gemini|cursor`: writes baton's hooks (and, for Claude Code, its
 * status line) into the host's settings file, for users who do not want the Claude Code plugin.
 * The file is read, checked and merged in memory and then replaced atomically, so a malformed file
 * or a failure halfway leaves it exactly as it was.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { BatonError } from '../../core/errors.js';
import { protection } from '../../project/policy/protect.js';
import { projectContext } from '../../project/project-context.js';
import { defaultRoot } from '../../project/root.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { confine } from '../../fs/confine.js';
import type { HostName } from '../hooks/events.js';
import { hookEntries, hostHookEntries } from './hooks.js';
import { checkSettings, mergeSettings, type MergeRequest } from './settings.js';
import { CONFIG_FILE_MAX_BYTES, isReadRefusal, readFileBounded } from '../../fs/bounded-read.js';

export interface InstallOptions {
  scope: 'project' | 'user';
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Command prefix that runs baton; default: this CLI, by absolute (or project-relative) path. */
  command?: string;
  statusLine: boolean;
  replaceStatusLine: boolean;
  remove: boolean;
  dryRun: boolean;
  /** Claude Code: the session starts `baton serve`, which then answers the hooks (docs/serve.md). */
  serve?: boolean;
  /** Path of the running CLI script (process.argv[1]). */
  script: string;
}

export interface InstallResult {
  file: string;
  changed: boolean;
  text: string;
  notes: string[];
}

/** Each host's folder and file, in the project and for the user (with the env var that moves it). */
const FILES: Record<HostName, { dir: string; file: string; userDirEnv?: string }> = {
  claude: { dir: '.claude', file: 'settings.json', userDirEnv: 'CLAUDE_CONFIG_DIR' },
  codex: { dir: '.codex', file: 'hooks.json', userDirEnv: 'CODEX_HOME' },
  gemini: { dir: '.gemini', file: 'settings.json' },
  cursor: { dir: '.cursor', file: 'hooks.json' },
};

function settingsFile(host: HostName, scope: InstallOptions['scope'], cwd: string, env: NodeJS.ProcessEnv): string {
  const { dir, file, userDirEnv } = FILES[host];
  if (scope === 'project') return join(defaultRoot(cwd, env), dir, file);
  const configDir = (userDirEnv && env[userDirEnv]) || (env.HOME ? join(env.HOME, dir) : undefined);
  if (!configDir)
    throw new BatonError('usage', 'cannot find the user settings: HOME is not set; set HOME or use --project');
  return join(configDir, file);
}

/** Double-quoted for sh: only these four characters are special inside double quotes. */
function shellQuote(path: string): string {
  return `"${path.replace(/["\\$`]/g, '\\$&')}"`;
}

/**
 * How a hook of each host finds the project folder, measured in the real CLIs: Claude Code and
 * Gemini CLI 0.61 set a variable for every hook (`$GEMINI_PROJECT_DIR`, the folder whose
 * `.gemini/settings.json` holds the hooks). Codex 0.171 sets none and runs a hook in the session's
 * folder, which may be below the project (it finds `.codex/` by the `.git` marker above), so the
 * command looks upwards for the `.codex/hooks.json` that lists it. Cursor runs a project hook in
 * the project folder (its documentation; not run in baton's tests).
 */
const PROJECT_DIR: Record<HostName, string> = {
  claude: '"$CLAUDE_PROJECT_DIR"',
  gemini: '"$GEMINI_PROJECT_DIR"',
  codex: '"$(d=$PWD; until [ -f "$d/.codex/hooks.json" ] || [ -z "$d" ]; do d=${d%/*}; done; printf %s "${d:-.}")"',
  cursor: '.',
};

/**
 * `sh "<package>/plugin/bin/baton"`, the plugin's hook wrapper shipped in the package, so a gated
 * event fails closed when Node is missing or too old or the CLI cannot start (docs/hooks.md, "When
 * baton itself fails"); `node "<.../bin/baton.js>"` where there is no wrapper beside the bin script.
 * Either names baton, so a later install or `--remove` recognises it. In project scope, with baton
 * installed inside the project, it is written relative to the project folder as the host finds it
 * (PROJECT_DIR), so a committed settings file works in every clone; `relative` is false when baton
 * lies outside the project and the path is this machine's.
 */
export function defaultCommand(
  script: string,
  scope: InstallOptions['scope'],
  root: string,
  host: HostName = 'claude',
): { command: string; relative: boolean } {
  let path = realpathSync(script);
  const bin = join(dirname(path), '..', 'bin', 'baton.js');
  if (basename(path) === 'cli.js' && existsSync(bin)) path = realpathSync(bin);
  const wrapper = join(dirname(path), '..', 'plugin', 'bin', 'baton');
  const runner = basename(path) === 'baton.js' && existsSync(wrapper) ? 'sh' : 'node';
  if (runner === 'sh') path = realpathSync(wrapper);
  const rel = relative(realpathSync(root), path);
  if (scope === 'project' && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel))
    return { command: `${runner} ${PROJECT_DIR[host]}/${shellQuote(rel)}`, relative: true };
  return { command: `${runner} ${shellQuote(path)}`, relative: false };
}

function readSettings(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileBounded(file, CONFIG_FILE_MAX_BYTES, file, "a host's settings are a few KB; fix the file");
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new BatonError('io', `cannot read ${file} (${(error as Error).message}); check its permissions`);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BatonError(
      'corrupt',
      `${file} is not valid JSON (${(error as Error).message}); fix the file by hand, nothing was changed`,
    );
  }
  checkSettings(parsed, file);
  return parsed;
}

/**
 * The hooks are the gate: an agent that runs `baton install --remove` (or rewrites them with its
 * own command) in GREEN would switch the gate off with a baton command. While a phase rule is
 * active, only a person, outside the agent session, changes them.
 */
function refuseInProtectedPhase(options: InstallOptions): void {
  const active = protection(projectContext({ cwd: options.cwd, env: options.env })).activePhase();
  if (active === undefined) return;
  throw new BatonError(
    'forbidden',
    `baton install changes the hooks that enforce the gate, and ${active.message}; nothing was changed: run it outside the agent session, or once the phase has moved on`,
  );
}

export function installHooks(host: HostName, options: InstallOptions): InstallResult {
  const file = settingsFile(host, options.scope, options.cwd, options.env);
  const current = readSettings(file);
  const root = options.scope === 'project' ? dirname(dirname(file)) : options.cwd;
  const found = options.command === undefined ? defaultCommand(options.script, options.scope, root, host) : undefined;
  const cli = options.command ?? found!.command;
  const request: MergeRequest = {
    hooks: host === 'claude' ? hookEntries(cli) : hostHookEntries(host, cli),
    replaceStatusLine: options.replaceStatusLine,
    remove: options.remove,
    serve: options.serve === true && host === 'claude',
  };
  if (options.statusLine && host === 'claude')
    request.statusLine = { type: 'command', command: `${cli} statusline`, padding: 0 };
  const merged = mergeSettings(current, request);
  const { notes } = merged;
  if (options.scope === 'project' && found?.relative === false && !options.remove)
    notes.push(
      `the hook command names baton by this machine's path (${cli}), since baton is not installed inside the project: install it there (npm install --save-dev) and re-run, or pass --command, before committing ${relative(root, file)}`,
    );
  // Cursor refuses a hooks file without its schema version.
  const settings =
    host === 'cursor' && !options.remove && merged.settings.version === undefined
      ? { version: 1, ...merged.settings }
      : merged.settings;
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  const exists = existsSync(file);
  const differs = JSON.stringify(settings) !== JSON.stringify(current);
  const changed = options.remove ? exists && differs : differs || !exists;
  if (changed && !options.dryRun) {
    refuseInProtectedPhase(options);
    // A project's .claude/ (.codex/, ...) linked out of the project is refused (exit 4); the user's own is theirs.
    if (options.scope === 'project') confine(root, file, 'settings file');
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, text);
  }
  return { file, changed, text, notes };
}
