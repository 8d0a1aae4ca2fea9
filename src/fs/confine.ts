/**
 * Path confinement: the checks that keep every write of the engine, the harness and the goal tools
 * inside its root, symlinks resolved (a link out of the project is refused with `unsafe_path`).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hasControlCharacter } from '../core/ascii.js';
import { BatonError } from '../core/errors.js';
import { lstatOrMissing } from './stat.js';

export function isInside(root: string, path: string): boolean {
  const rel = relativePath(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * path.relative(root, path), answered without Node's relative for a path inside `root` (every
 * command's document is, and each is checked several times): relative() is 2.4 KB of Node's
 * source that a process compiles on its first call, ~0.7 M instructions. Both paths are resolved
 * as relative() resolves them; one inside the root is then the root, a separator and the rest,
 * and the rest is relative()'s answer. Any other path (outside the root, or on Windows, whose
 * relative() also ignores case) is relative()'s own.
 */
export function relativePath(root: string, path: string): string {
  if (sep === '/') {
    const from = resolve(root);
    const to = resolve(path);
    if (to === from) return '';
    const prefix = from === '/' ? from : `${from}/`;
    if (to.startsWith(prefix)) return to.slice(prefix.length);
  }
  return relative(root, path);
}

/**
 * Where a write to `path` would land: every symlink on the way resolved, including a dangling
 * one (writing through it would create its target), and the parts that do not exist yet
 * appended as they are.
 */
export function realTarget(path: string): string {
  return resolveLinks(resolve(path), 0);
}

function resolveLinks(path: string, depth: number): string {
  const stat = lstatOrMissing(path);
  if (stat === undefined) {
    const parent = dirname(path);
    return parent === path ? path : join(resolveLinks(parent, depth), basename(path));
  }
  if (!stat.isSymbolicLink()) {
    try {
      return realpathSync.native(path);
    } catch {
      return path;
    }
  }
  // realpath resolves a link whose target exists; a dangling one is followed by hand.
  try {
    return realpathSync.native(path);
  } catch {
    // dangling: resolved below
  }
  if (depth >= 40) throw new BatonError('unsafe_path', `${path} is a loop of symlinks; remove the link`);
  return resolveLinks(resolve(resolveLinks(dirname(path), depth + 1), readlinkSync(path)), depth + 1);
}

/**
 * Maps a key to a file under `root`, refusing anything that leaves it: `..` that climbs out, an
 * absolute key, a control character, or a symlink (of the file or any folder on the way, dangling
 * or not) whose target lies outside the root.
 */
export function resolveKey(root: string, key: string): string {
  return resolveKeyIn(root, realTarget(root), key);
}

/** resolveKey with the root's real path already known. */
export function resolveKeyIn(root: string, realRoot: string, key: string): string {
  return resolveKeyReal(root, realRoot, key).file;
}

/** resolveKeyIn, with the real path of the file it returns (resolved once, for callers that check it too). */
export function resolveKeyReal(root: string, realRoot: string, key: string): { file: string; real: string } {
  if (key === '' || hasControlCharacter(key)) {
    throw new BatonError(
      'unsafe_path',
      `document path ${JSON.stringify(key)} is empty or has control characters; use a plain relative path`,
    );
  }
  if (isAbsolute(key))
    throw new BatonError('unsafe_path', `document key ${key} must be relative to the store root ${root}`);
  const file = resolve(root, key);
  if (!isInside(root, file)) {
    throw new BatonError(
      'unsafe_path',
      `document path ${key} escapes the project root ${root} through '..'; use a path inside the project`,
    );
  }
  const real = realTarget(file);
  if (!isInside(realRoot, real)) {
    throw new BatonError(
      'unsafe_path',
      `document path ${key} leaves the project root ${root} through a symlink (to ${real}); use a path inside the project`,
    );
  }
  let link: boolean;
  try {
    const stat = lstatSync(file);
    link = stat.isSymbolicLink();
    // Only a link needs a second look, at what it leads to.
    if (!(link ? statSync(file) : stat).isFile())
      throw new BatonError('unsafe_path', `document path ${key} is not a regular file; give the path of a JSON file`);
  } catch (error) {
    if (error instanceof BatonError) throw error;
    return { file, real };
  }
  // A link to a document inside the project is that document: writes go to its target (an atomic
  // rename over the link would replace the link instead), and both names share one lock and history.
  return { file: link ? real : file, real };
}

/**
 * The one check every write of the engine, the harness and the goal tools goes through: `path`,
 * its symlinks resolved, must lie inside `root` (itself resolved, so a project reached through a
 * symlink is fine). Refuses with `unsafe_path` (exit 4) before anything is written. Returns `path`.
 */
export function confine(root: string, path: string, what = 'path'): string {
  confineReal(realTarget(root), resolve(root, path), what);
  return path;
}

/** `mkdir -p` of a folder that must lie inside `root`, checked before anything is created. */
export function mkdirInside(root: string, dir: string, what = 'folder'): void {
  confine(root, dir, what);
  mkdirSync(dir, { recursive: true });
}

export function confineReal(realRoot: string, path: string, what: string): void {
  const real = realTarget(path);
  if (!isInside(realRoot, real)) {
    throw new BatonError(
      'unsafe_path',
      `${what} ${path} leads outside ${realRoot} through a symlink (to ${real}); remove the symlink or make it point inside`,
    );
  }
}

const OPEN_FLAGS = { a: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 'r+': constants.O_RDWR } as const;

/**
 * open(2) for a write in place (append, truncate) that never follows a symlink at the file's own
 * name: a link planted inside a checked folder (a history segment linked elsewhere) is refused
 * with exit 4 instead of written through. A hard link is refused too: the file's other name may
 * lie anywhere on the file system (`ln ~/.bashrc .baton/x.json.history`), and a write in place
 * changes what every name shows. baton's own files have one name.
 */
export function openNoFollow(path: string, flags: keyof typeof OPEN_FLAGS, mode = 0o666): number {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS[flags] | (constants.O_NOFOLLOW ?? 0), mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new BatonError(
      'unsafe_path',
      `${path} is a symlink; baton writes its own files only in place, remove the link`,
    );
  }
  const links = fstatSync(fd).nlink;
  if (links > 1) {
    closeSync(fd);
    throw new BatonError(
      'unsafe_path',
      `${path} has ${links} hard links, so a write would change a file elsewhere too; remove its other names ('find / -samefile FILE' lists them), or replace it with a copy of its own`,
    );
  }
  return fd;
}

/** Appends `text` in one write through openNoFollow: never through a symlink or a hard link at the name. */
export function appendNoFollow(path: string, text: string): void {
  const fd = openNoFollow(path, 'a');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
