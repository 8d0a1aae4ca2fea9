import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside } from '../stores/file/paths.js';

/**
 * The project root a document path is judged against: BATON_ROOT, else CLAUDE_PROJECT_DIR, else
 * the git top level of the working directory, else the working directory.
 */
export function projectRoot(cwd: string, env: Record<string, string | undefined>): string {
  const explicit = env.BATON_ROOT || env.CLAUDE_PROJECT_DIR;
  if (explicit) return resolve(cwd, explicit);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/**
 * Splits a document path into the store root and the key under it. A relative path must stay in
 * the project (the store refuses `..` escapes and symlinks out). An absolute path outside the
 * project is taken as the user's explicit choice: its own folder becomes the root, so symlink
 * checks still apply to the file itself.
 */
export function locate(path: string, cwd: string, env: Record<string, string | undefined>): { root: string; key: string } {
  const root = projectRoot(cwd, env);
  if (!isAbsolute(path)) return { root, key: relative(root, resolve(cwd, path)) || path };
  const real = realRoot(root);
  if (isInside(root, path)) return { root, key: relative(root, path) };
  if (isInside(real, path)) return { root: real, key: relative(real, path) };
  return { root: dirname(path), key: relative(dirname(path), path) };
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}
