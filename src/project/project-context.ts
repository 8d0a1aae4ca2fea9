/**
 * The project a command, a library call, a hook or a compat script works in: its root and its
 * baton.config.json. Every face gets it here, so they agree on where state lives and which rules
 * of the config apply (classification, budgets, limits; the store choice later). Loaded by the
 * hook front for every event: it reads one small file and stats a few paths, and
 * imports nothing else.
 */
import { resolve } from 'node:path';
import { readConfigFile, type RawConfig } from './config-file.js';
import { defaultRoot, markedRoot, rootConfigOf } from './root.js';

export interface ProjectContext {
  /** Where baton.config.json is read: BATON_ROOT, CLAUDE_PROJECT_DIR, the git top level, the cwd. */
  configRoot: string;
  /** Where project state lives: configRoot, or the folder the root markers lead to. */
  root: string;
  /** The config file as read, not validated. */
  file: RawConfig;
  /** Its content; `{}` when it is missing or invalid. */
  config: Record<string, unknown>;
  /** The config's profile, else the caller's (a hook's --profile, the Eneo compat scripts). */
  profile: string | undefined;
}

export interface ProjectOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** A profile the caller names (`baton hook --profile`); it wins over the config's. */
  profile?: string | undefined;
  /** The profile to assume when neither the caller nor the config names one. */
  defaultProfile?: string | undefined;
  /**
   * A folder named as the project when the environment names none: the workspace a host reports
   * (Cursor's workspace_roots[0]), the folder `baton doctor DIR` checks.
   */
  workspace?: string | undefined;
  /** defaultRoot(cwd, env), when the caller has it already (openDoc): its walk up for `.git` is made once. */
  defaultRoot?: string | undefined;
}

export function projectContext(options: ProjectOptions): ProjectContext {
  const { cwd, env } = options;
  const configRoot =
    options.workspace && !env.BATON_ROOT && !env.CLAUDE_PROJECT_DIR
      ? resolve(options.workspace)
      : (options.defaultRoot ?? defaultRoot(cwd, env));
  const file = readConfigFile(configRoot);
  const config = file.state === 'ok' ? file.value : {};
  const own = typeof config.profile === 'string' && config.profile !== '' ? config.profile : undefined;
  const profile = options.profile ?? own ?? options.defaultProfile;
  const root = markedRoot(configRoot, rootConfigOf(config, profile), cwd, env);
  return { configRoot, root, file, config, profile };
}
