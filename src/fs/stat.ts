/** stat helpers that treat a missing path as an answer rather than an error. */
import { lstatSync, type Stats } from 'node:fs';

/** lstat, or undefined for a path that is not there (ENOENT, or ENOTDIR below a file). */
export function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
