/**
 * Every read of a goal file (state.md, log.md, the pointer, the lint sidecars): bounded, and only
 * of a regular file, so a file made huge by hand or a FIFO at its name ends in one line naming it.
 */
import { readBytesBounded, STATE_FILE_MAX_BYTES, type ReadLabel } from '../fs/bounded-read.js';

const label = (path: string): ReadLabel => ({
  what: `goal file ${path}`,
  fix: 'goal files are a few KB; shorten it, or move it aside',
});

export function readGoalText(path: string): string {
  return readGoalBytes(path).toString('utf8');
}

export function readGoalBytes(path: string): Buffer {
  return readBytesBounded(path, STATE_FILE_MAX_BYTES, label(path));
}
