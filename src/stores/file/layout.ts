/** Where the file store keeps a document's lock, metadata and history: the `.baton/` folder beside it. */
import { basename, dirname, join, sep } from 'node:path';
import { confineReal, realTarget, relativePath, resolveKeyReal } from '../../fs/confine.js';
import { NAME_MAX, shortName } from '../../fs/file-names.js';
import { lstatOrMissing } from '../../fs/stat.js';
import { SIDECAR, sidecarRefusal } from '../keys.js';

/** Where a document and its sidecar files live on disk. */
export interface DocPaths {
  file: string;
  /** `.baton/` beside the document: lock, metadata, history. */
  sidecar: string;
  lock: string;
  meta: string;
  history: string;
}

/**
 * The longest suffix the engine adds to a document's name: the lock's steal guard temp file
 * `.NAME.lock.steal.<pid>.<12 hex>.tmp` is 33 bytes plus the pid (at most 7 digits on Linux).
 * Names up to NAME_MAX - 40 keep their readable sidecar names, as before; longer ones use
 * `shortName`. Session files (`session-<200 chars>.json`, 213 bytes) stay readable.
 */
const READABLE_MAX = NAME_MAX - 40;

/** The base of a document's lock, metadata and history names. */
export function auxName(name: string): string {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: a name that short needs no count, and every
  // `get` skips compiling Node's Buffer.byteLength (0.2 M instructions).
  return name.length * 3 <= READABLE_MAX || Buffer.byteLength(name) <= READABLE_MAX ? name : shortName(name);
}

export function docPaths(file: string): DocPaths {
  const sidecar = join(dirname(file), SIDECAR);
  const name = auxName(basename(file));
  return {
    file,
    sidecar,
    lock: join(sidecar, `${name}.lock`),
    meta: join(sidecar, `${name}.meta.json`),
    history: join(sidecar, `${name}.history`),
  };
}

/**
 * The document's paths under `root`, each checked: the document (resolveKey), and the `.baton/`
 * folder and its lock, metadata and history, none of which may be a symlink leading out of the
 * root (the engine writes all of them). The document's real path is resolved once (every commit
 * pays for each resolve, a system call per folder on the way); a file or folder in a checked
 * folder that is not itself a link needs no further resolving: one lstat each.
 */
export function checkedDocPaths(root: string, key: string): DocPaths {
  const realRoot = realTarget(root);
  const paths = docPaths(checkedFile(root, realRoot, key));
  // Not a link, the sidecar lies in the document's real folder, which is inside the root.
  if (isLink(paths.sidecar)) confineReal(realRoot, paths.sidecar, `${key}'s .baton folder`);
  for (const path of [paths.lock, paths.meta, paths.history]) {
    if (isLink(path)) confineReal(realRoot, path, `${key}'s sidecar file`);
  }
  return paths;
}

function isLink(path: string): boolean {
  return lstatOrMissing(path)?.isSymbolicLink() ?? false;
}

/**
 * The document's file under `root`, checked as checkedDocPaths checks it, for a read, which opens
 * no sidecar file: their four lstats (and the history's, the lock's and the metadata's names) were
 * ~0.2 M instructions of every `get` (docs/benchmarks.md).
 */
export function checkedDocFile(root: string, key: string): string {
  return checkedFile(root, realTarget(root), key);
}

function checkedFile(root: string, realRoot: string, key: string): string {
  const { file, real } = resolveKeyReal(root, realRoot, key);
  // A link (of the file or a folder on the way) into a sidecar makes the key name one.
  if (relativePath(realRoot, real).split(sep).includes(SIDECAR)) throw sidecarRefusal(key);
  return file;
}
