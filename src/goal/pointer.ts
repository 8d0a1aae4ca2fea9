import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { mkdirInside } from '../fs/confine.js';
import { insideRoot } from './goal-paths.js';
import { readGoalText } from './goal-read.js';
import { isReadRefusal } from '../fs/bounded-read.js';

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

/** The pointer when it is valid (exists, slug and dir non-empty); undefined otherwise. */
export function readPointer(root: string): Pointer | undefined {
  let text: string;
  try {
    text = readGoalText(pointerPath(root));
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return undefined;
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
