/**
 * This machine's record that the project's work board lives on its shared store (PostgreSQL):
 * `.baton/board-on-store`, written when a read or write here finds the board there, removed when a
 * read finds none. When the server cannot be reached, the gate asks it whether reservations may be
 * in force: with it, every write is denied (a reservation must never lapse because the store is
 * down); without it, this machine never saw a board, so the hook judges by its own files.
 *
 * `.baton/` is baton state (project/policy/state-files.ts), so an agent's Write or `rm` of the
 * marker is denied and the OS sandbox holds it read-only. Only its presence counts, taken by
 * lstat: nothing is read through a link planted there, and whatever sits at the name (a link, a
 * folder) counts as present, so a gated decision fails closed.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { unlinkQuietly, writeFileAtomic } from '../fs/atomic.js';
import { confine, mkdirInside } from '../fs/confine.js';
import { ignoreLocalState } from '../fs/local-state-folder.js';

export const STORE_MARKER = '.baton/board-on-store';

export function boardOnStoreMarked(root: string): boolean {
  try {
    // No exception (and its stack) for "not there", the usual answer: a resident server on a shared
    // store asks on every PreToolUse of a project without a board.
    return lstatSync(join(root, STORE_MARKER), { throwIfNoEntry: false }) !== undefined;
  } catch {
    // Only "not there" means unmarked; a marker baton cannot even stat is taken as present.
    return true;
  }
}

/**
 * Records what a read of the shared store found. Best effort: a command run inside the OS sandbox
 * cannot write `.baton/`, and the next hook (outside it) records the same thing.
 */
export function noteBoardOnStore(root: string, present: boolean): void {
  const file = join(root, STORE_MARKER);
  const dir = join(root, '.baton');
  try {
    if (!present) {
      if (!boardOnStoreMarked(root)) return;
      // Never through a `.baton` that links out of the project.
      confine(root, dir, '.baton folder');
      unlinkQuietly(file);
      return;
    }
    if (boardOnStoreMarked(root)) return;
    mkdirInside(root, dir, '.baton folder');
    ignoreLocalState(dir);
    // Atomic rename: a link planted at the name is replaced, never written through.
    writeFileAtomic(file, 'the work board of this project lives on its shared store\n', { durable: false });
  } catch {
    // See above: the marker is refreshed by the next read that can write it.
  }
}
