/**
 * Project-root discovery, the one used by every face (CLI, library, hooks, compat scripts) through
 * projectContext(). Two steps:
 *
 * 1. The default root, where baton.config.json is looked for: BATON_ROOT, else
 *    CLAUDE_PROJECT_DIR, else the git top level of the working directory, else the working
 *    directory.
 * 2. Root markers. The Eneo harness looked for its `backend/src/intric`
 *    folder because the session could start in a parent folder (a workspace holding `eneo/`) or
 *    in a devcontainer mounted at `/workspace`. baton makes the three lists configuration
 *    (`"root": {"markers", "nested", "fallbacks"}` in baton.config.json, else the profile's);
 *    with no markers the root is the default one.
 *
 * Marker order, from the start folder (CLAUDE_PROJECT_DIR, else the working directory):
 *   1. its git top level, if a marker is under it;  2. the start folder itself;
 *   3. `<start>/<nested>` for each nested folder;    4. each absolute fallback;
 *   5. otherwise the default root. The original fell back to the start folder, but baton reads
 *      its config from the default root, so landing anywhere else would put the state where no
 *      config describes it.
 * BATON_ROOT is an explicit choice and always wins. Only a few stats that throw nothing for a
 * missing path: cheap enough for the hook front, which resolves the root before deciding whether
 * the event is handled.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside, relativePath } from '../fs/confine.js';
import { present } from '../fs/absent.js';
import { profileNamed } from './profiles/registry.js';

export interface RootConfig {
  markers: string[];
  nested?: string[];
  fallbacks?: string[];
}

export function defaultRoot(cwd: string, env: Record<string, string | undefined>): string {
  const explicit = env.BATON_ROOT || env.CLAUDE_PROJECT_DIR;
  if (explicit) return resolve(cwd, explicit);
  return gitTop(resolve(cwd)) ?? resolve(cwd);
}

/** The `root` section of a raw config, else the profile's; undefined when neither sets markers. */
export function rootConfigOf(raw: Record<string, unknown>, profile: string | undefined): RootConfig | undefined {
  const own = raw.root;
  if (own && typeof own === 'object' && Array.isArray((own as RootConfig).markers)) return own as RootConfig;
  return profileNamed(profile)?.root;
}

export function markedRoot(
  fallback: string,
  spec: RootConfig | undefined,
  cwd: string,
  env: Record<string, string | undefined>,
): string {
  const markers = (spec?.markers ?? []).filter((m) => typeof m === 'string' && m !== '');
  if (markers.length === 0 || env.BATON_ROOT) return fallback;
  const start = env.CLAUDE_PROJECT_DIR ? resolve(cwd, env.CLAUDE_PROJECT_DIR) : resolve(cwd);
  const marked = (dir: string) => markers.some((marker) => present(join(dir, marker)));
  const top = gitTop(start);
  if (top !== undefined && marked(top)) return top;
  if (marked(start)) return start;
  for (const sub of spec?.nested ?? [])
    if (typeof sub === 'string' && marked(join(start, sub))) return join(start, sub);
  for (const abs of spec?.fallbacks ?? []) if (typeof abs === 'string' && isAbsolute(abs) && marked(abs)) return abs;
  return fallback;
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a worktree's `.git` file). */
function gitTop(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (present(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Splits a document path into the store root and the key under it, judged against the default
 * root. A relative path must stay in the project (the store refuses `..` escapes and symlinks
 * out). An absolute path outside the project is taken as the user's explicit choice: its own
 * folder becomes the root, so symlink checks still apply to the file itself.
 */
export function locate(
  path: string,
  cwd: string,
  env: Record<string, string | undefined>,
  root = defaultRoot(cwd, env),
): { root: string; key: string } {
  if (!isAbsolute(path)) return { root, key: relativePath(root, resolve(cwd, path)) || path };
  if (isInside(root, path)) return { root, key: relativePath(root, path) };
  // Only a path outside the root as given asks for the root's real path (realpathSync: -0.08 M
  // instructions of a `get` of an absolute path inside it, as the bench's).
  const real = realRoot(root);
  if (isInside(real, path)) return { root: real, key: relativePath(real, path) };
  return { root: dirname(path), key: relativePath(dirname(path), path) };
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}
