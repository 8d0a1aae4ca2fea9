import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { defaultRoot } from '../project/root.js';
import { isInside } from '../stores/file/paths.js';

/**
 * Splits a document path into the store root and the key under it, judged against the default
 * project root (see project/root.ts). A relative path must stay in
 * the project (the store refuses `..` escapes and symlinks out). An absolute path outside the
 * project is taken as the user's explicit choice: its own folder becomes the root, so symlink
 * checks still apply to the file itself.
 */
export function locate(
  path: string,
  cwd: string,
  env: Record<string, string | undefined>,
): { root: string; key: string } {
  const root = defaultRoot(cwd, env);
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
