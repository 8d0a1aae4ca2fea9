/**
 * Where a write really lands: the path walked one component at a time, each existing symlink
 * replaced by its target (a dangling one too: `ln -s .env .env.example` makes `.env.example` a
 * name for `.env` before `.env` exists), `..` applied after the link it follows, as the kernel
 * does. Components that do not exist yet are appended as written.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

const MAX_LINKS = 40;
export const MAX_TREE = 5000;

/** `path` must be absolute. */
export function realPath(path: string): string {
  const rest = path.split('/').filter(Boolean);
  let current = '/';
  let hops = 0;
  let exists = true;
  while (rest.length > 0) {
    const name = rest.shift() as string;
    if (name === '.') continue;
    if (name === '..') {
      current = resolve(current, '..');
      continue;
    }
    const next = join(current, name);
    if (exists) {
      try {
        // A missing name is the common case (a file about to be written): told without an
        // exception, whose stack capture cost more than the lstat.
        const stat = lstatSync(next, { throwIfNoEntry: false });
        if (stat === undefined) exists = false;
        else if (stat.isSymbolicLink() && hops++ < MAX_LINKS) {
          const target = readlinkSync(next);
          rest.unshift(...target.split('/').filter(Boolean));
          if (isAbsolute(target)) current = '/';
          continue;
        }
      } catch {
        exists = false;
      }
    }
    current = next;
  }
  return current;
}

/** Installed dependencies and git's store: not the project's files, never walked. */
export const NOT_PROJECT = new Set(['node_modules', '.git']);

/**
 * The entries below a folder, breadth first (shallow entries first, so a `tests/` near the top is
 * seen before the bound), not following symlinks, not into node_modules or .git (a test file of
 * a dependency is not the project's). Undefined past `MAX_TREE` entries.
 */
export function treeEntries(dir: string): string[] | undefined {
  const out: string[] = [];
  if (dir.split('/').some((name) => NOT_PROJECT.has(name))) return out;
  const queue = [dir];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (NOT_PROJECT.has(entry.name)) continue;
      const path = join(current, entry.name);
      out.push(path);
      if (out.length > MAX_TREE) return undefined;
      if (entry.isDirectory()) queue.push(path);
    }
  }
  return out;
}
