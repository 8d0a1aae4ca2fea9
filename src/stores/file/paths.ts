import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BatonError } from '../../core/errors.js';

/** Where a document and its sidecar files live on disk. */
export interface DocPaths {
  file: string;
  /** `.baton/` beside the document: lock, metadata, history. */
  sidecar: string;
  lock: string;
  meta: string;
  history: string;
}

export const SIDECAR = '.baton';

export function docPaths(file: string): DocPaths {
  const sidecar = join(dirname(file), SIDECAR);
  const name = basename(file);
  return {
    file,
    sidecar,
    lock: join(sidecar, `${name}.lock`),
    meta: join(sidecar, `${name}.meta.json`),
    history: join(sidecar, `${name}.history`),
  };
}

/**
 * Maps a key to a file under `root`, refusing anything that leaves it: `..` that climbs out, an
 * absolute key, a control character, or a symlink (of the file or any folder on the way) whose
 * target lies outside the root.
 */
export function resolveKey(root: string, key: string): string {
  if (key === '' || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new BatonError('unsafe_path', `document path ${JSON.stringify(key)} is empty or has control characters; use a plain relative path`);
  }
  if (isAbsolute(key)) throw new BatonError('unsafe_path', `document key ${key} must be relative to the store root ${root}`);
  const file = resolve(root, key);
  if (!isInside(root, file)) {
    throw new BatonError('unsafe_path', `document path ${key} escapes the project root ${root} through '..'; use a path inside the project`);
  }
  const realRoot = realPath(root);
  const probe = existsSync(file) ? file : deepestExisting(dirname(file));
  if (probe !== undefined) {
    const real = realpathSync(probe);
    if (!isInside(realRoot, real)) {
      throw new BatonError('unsafe_path', `document path ${key} leaves the project root ${root} through a symlink (${probe} -> ${real}); use a path inside the project`);
    }
  }
  if (!existsSync(file)) return file;
  if (!statSync(file).isFile()) {
    throw new BatonError('unsafe_path', `document path ${key} is not a regular file; give the path of a JSON file`);
  }
  // A link to a document inside the project is that document: writes go to its target (an atomic
  // rename over the link would replace the link instead), and both names share one lock and history.
  return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** realpath of a folder that may not exist yet: its deepest existing ancestor, resolved, plus the rest. */
function realPath(path: string): string {
  const existing = deepestExisting(path);
  return existing === undefined ? path : join(realpathSync(existing), relative(existing, path));
}

function deepestExisting(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(current)) return current;
    if (dirname(current) === current) return undefined;
  }
}
