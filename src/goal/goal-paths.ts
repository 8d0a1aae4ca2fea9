/**
 * Where goals live and how the tools name themselves. The root is fixed
 * (`$HOME/.claude/orchestrate`, no other override) so the drop-in scripts and baton agree.
 */
import { join } from 'node:path';
import { confine } from '../fs/confine.js';

const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug) && slug !== 'archive' && slug !== 'active';
}

/** Returns undefined when HOME is unset or empty: goal.sh refuses, hooks stay silent. */
export function goalRoot(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME;
  return home ? join(home, '.claude', 'orchestrate') : undefined;
}

export interface GoalPaths {
  root: string;
  dir: string;
  state: string;
  log: string;
  sidecar: string;
  lintLast: string;
}

/**
 * The goal's files, each checked to lie inside ROOT once symlinks are resolved (a goal folder or
 * state.md linked elsewhere is refused with exit 4): every write of the goal tools and hooks
 * goes to one of these paths, the pointer or the archive (see `insideRoot`).
 */
export function goalPaths(root: string, slug: string): GoalPaths {
  const dir = join(root, slug);
  const paths = {
    root,
    dir,
    state: join(dir, 'state.md'),
    log: join(dir, 'log.md'),
    sidecar: join(dir, '.lint'),
    lintLast: join(dir, '.lint-last'),
  };
  for (const path of [
    dir,
    paths.state,
    paths.log,
    paths.sidecar,
    paths.lintLast,
    join(dir, 'archive'),
    stateLockPath(paths.state),
  ])
    confine(root, path, `goal '${slug}' path`);
  return paths;
}

/** A path under ROOT the goal tools write (the pointer, the archive), checked like goalPaths. */
export function insideRoot(root: string, path: string): string {
  return confine(root, path, 'goal path');
}

/**
 * The lock guarding every read-modify-write of a state.md (and its log rotation) sits beside it,
 * so `baton lint --fix` on any file and `baton goal` agree on it without knowing the root.
 * `close` leaves this one name behind when it archives the folder.
 */
export function stateLockPath(stateFile: string): string {
  return join(stateFile, '..', '.state.md.lock');
}

/**
 * How messages name the tools. Through the drop-in scripts (which export
 * BATON_ORCHESTRATE_PLUGIN_ROOT) they print the original entry points, as the plugin's own
 * checks expect; run natively they name baton's commands.
 */
export interface ToolNames {
  /** Prefix of refusals and the word used in prose: `goal.sh` or `baton goal`. */
  goal: string;
  /** A runnable command line for the goal tool. */
  goalCommand: string;
  /** A runnable command line for the transcript reader. */
  transcriptCommand: string;
  /** True when running as the drop-in replacement of the plugin scripts. */
  compat: boolean;
}

export function toolNames(env: NodeJS.ProcessEnv): ToolNames {
  const plugin = env.BATON_ORCHESTRATE_PLUGIN_ROOT;
  if (plugin) {
    return {
      goal: 'goal.sh',
      goalCommand: `bash ${plugin}/scripts/goal.sh`,
      transcriptCommand: `bash ${plugin}/scripts/transcript-text.sh`,
      compat: true,
    };
  }
  return { goal: 'baton goal', goalCommand: 'baton goal', transcriptCommand: 'baton goal transcript', compat: false };
}
