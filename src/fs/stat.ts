/** stat helpers that treat a missing path as an answer rather than an error. */
import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';

/** lstat, or undefined for a path that is not there (ENOENT, or ENOTDIR below a file). */
export function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Whether `path` is a regular file, following symlinks; false when it is missing or unreadable. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether `path` is a folder, following symlinks; false when it is missing or unreadable. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The names in a folder; none when it is missing or cannot be read (the callers only look for their own files). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
