import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { mkdirInside } from '../fs/confine.js';
import { insideRoot } from './goal-paths.js';
import { readGoalText } from './goal-read.js';
import { isReadRefusal } from '../fs/bounded-read.js';
import { absent } from '../fs/absent.js';
import { BatonError, systemFix } from '../core/errors.js';

/** The `ROOT/active` pointer: one active goal, its launch directory and owner session. */
export interface Pointer {
  slug: string;
  dir: string;
  session: string;
}

function pointerPath(root: string): string {
  return join(root, 'active');
}

function field(lines: string[], key: string): string {
  const line = lines.find((l) => l.startsWith(`${key}=`));
  return line === undefined ? '' : line.slice(key.length + 1);
}

/**
 * The pointer when it is valid (exists, slug and dir non-empty); undefined otherwise. One that is
 * there but cannot be read (a link loop, a folder this user may not enter) throws the line naming
 * it: taken for "no active goal", start would leave the previous goal active and unpaused.
 */
export function readPointer(root: string): Pointer | undefined {
  const path = pointerPath(root);
  let text: string;
  try {
    text = readGoalText(path);
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    if (absent(path)) return undefined;
    const why = systemFix(error) ?? (error instanceof Error ? error.message : String(error));
    throw new BatonError('io', `goal pointer ${path} cannot be read, so which goal is active is not known: ${why}`, {
      cause: error,
    });
  }
  const lines = text.split('\n');
  const pointer = { slug: field(lines, 'slug'), dir: field(lines, 'dir'), session: field(lines, 'session') };
  return pointer.slug && pointer.dir ? pointer : undefined;
}

/** Always the whole file, atomically; the session line only when a session is given. */
export function writePointer(root: string, pointer: Pointer): void {
  mkdirInside(root, root, 'goal root');
  const session = pointer.session ? `session=${pointer.session}\n` : '';
  writeFileAtomic(insideRoot(root, pointerPath(root)), `slug=${pointer.slug}\ndir=${pointer.dir}\n${session}`);
}

export function removePointer(root: string): void {
  try {
    unlinkSync(pointerPath(root));
  } catch {
    // already gone
  }
}
