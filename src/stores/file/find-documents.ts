/**
 * Finds the file store's documents under a folder by their `.baton/` sidecars, for `baton doctor`,
 * the dashboard and export: the store's layout knows which files are documents.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { auxName } from './layout.js';
import { noEntry } from '../../fs/absent.js';
import { systemFix } from '../../core/errors.js';
import { SIDECAR } from '../keys.js';

const SKIP = new Set(['node_modules', '.git']);
const SIDECAR_FILE = /^(.+?)\.(lock|meta\.json|history)$/;

/**
 * Every document folder with a `.baton/` sidecar under `dir`, and the document names it knows.
 * A folder that is there but cannot be listed (this user may not read it) is told to `unlisted`,
 * when given: the doctor must not report "no documents" for a folder it could not look into.
 */
export function findDocuments(
  dir: string,
  depth = 12,
  unlisted?: (folder: string, error: unknown) => void,
): { folder: string; names: string[] }[] {
  const found: { folder: string; names: string[] }[] = [];
  const walk = (folder: string, level: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      // Gone since it was seen, or a file by now: nothing to list. Anything else, the caller hears.
      if (!noEntry(error) && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') unlisted?.(folder, error);
      return;
    }
    const sidecar = entries.find((entry) => entry.name === SIDECAR && entry.isDirectory());
    if (sidecar) found.push({ folder, names: documentNames(join(folder, SIDECAR), entries) });
    if (level >= depth) return;
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.isSymbolicLink() && !SKIP.has(entry.name) && entry.name !== SIDECAR)
        walk(join(folder, entry.name), level + 1);
    }
  };
  walk(dir, 0);
  return found;
}

/** The line for a folder findDocuments() could not list: the folder, the cause and the fix. */
export function unlistedFolder(folder: string, error: unknown, so: string): string {
  return `${folder} cannot be listed, so ${so}: ${systemFix(error) ?? String(error)}`;
}

/** Sidecar names of a long document name are shortened (auxName): the folder's files map them back. */
function documentNames(sidecar: string, entries: Dirent[]): string[] {
  const long = new Map(
    entries.filter((entry) => auxName(entry.name) !== entry.name).map((entry) => [auxName(entry.name), entry.name]),
  );
  const names = new Set<string>();
  for (const name of readdirSync(sidecar)) {
    const match = SIDECAR_FILE.exec(name);
    if (match?.[1]) names.add(long.get(match[1]) ?? match[1]);
  }
  return [...names].sort();
}
