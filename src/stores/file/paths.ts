import { constants, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BatonError } from '../../core/errors.js';
import { twoLaneFnv1a } from '../../core/hash.js';

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

/** The longest file name, in bytes, that ext4, XFS, btrfs, APFS and NTFS accept. */
const NAME_MAX = 255;
/**
 * The longest suffix the engine adds to a document's name: the lock's steal guard temp file
 * `.NAME.lock.steal.<pid>.<12 hex>.tmp` is 33 bytes plus the pid (at most 7 digits on Linux).
 * Names up to NAME_MAX - 40 keep their readable sidecar names, as before; longer ones use
 * `shortName`. Session files (`session-<200 chars>.json`, 213 bytes) stay readable.
 */
const READABLE_MAX = NAME_MAX - 40;

/**
 * A name for auxiliary files of a long document name: a readable prefix of the name (cut at a
 * UTF-8 character boundary) and a hash of the whole name, 150 + 17 bytes.
 */
export function shortName(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  let cut = Math.min(bytes.length, 150);
  while (cut > 0 && cut < bytes.length && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return `${bytes.subarray(0, cut).toString('utf8')}~${twoLaneFnv1a(name)}`;
}

/** The base of a document's lock, metadata and history names. */
export function auxName(name: string): string {
  return Buffer.byteLength(name) <= READABLE_MAX ? name : shortName(name);
}

/** The temp file of an atomic write to `target`: `.NAME.PID.HEX.tmp`, NAME shortened only when the whole would not fit. */
export function tempName(target: string, pid: number, hex: string): string {
  const plain = `.${target}.${pid}.${hex}.tmp`;
  return Buffer.byteLength(plain) <= NAME_MAX ? plain : `.${shortName(target)}.${pid}.${hex}.tmp`;
}

/** Whether a temp file's NAME part (see TEMP_FILE_PATTERN) stands for `target`. */
export function isTempOf(namePart: string, target: string): boolean {
  return namePart === target || namePart === shortName(target);
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
 * root (the engine writes all of them). A file in a checked folder that is not itself a link
 * needs no further resolving: one lstat each.
 */
export function checkedDocPaths(root: string, key: string): DocPaths {
  const realRoot = realTarget(root);
  const paths = docPaths(resolveKeyIn(root, realRoot, key));
  confineReal(realRoot, paths.sidecar, `${key}'s .baton folder`);
  for (const path of [paths.lock, paths.meta, paths.history]) {
    if (isLink(path)) confineReal(realRoot, path, `${key}'s sidecar file`);
  }
  return paths;
}

/**
 * Maps a key to a file under `root`, refusing anything that leaves it: `..` that climbs out, an
 * absolute key, a control character, or a symlink (of the file or any folder on the way, dangling
 * or not) whose target lies outside the root.
 */
export function resolveKey(root: string, key: string): string {
  return resolveKeyIn(root, realTarget(root), key);
}

function resolveKeyIn(root: string, realRoot: string, key: string): string {
  if (key === '' || /[\u0000-\u001f\u007f]/.test(key)) {
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
    link = lstatSync(file).isSymbolicLink();
    if (!statSync(file).isFile())
      throw new BatonError('unsafe_path', `document path ${key} is not a regular file; give the path of a JSON file`);
  } catch (error) {
    if (error instanceof BatonError) throw error;
    return file;
  }
  // A link to a document inside the project is that document: writes go to its target (an atomic
  // rename over the link would replace the link instead), and both names share one lock and history.
  return link ? real : file;
}

function isLink(path: string): boolean {
  return lstatOrMissing(path)?.isSymbolicLink() ?? false;
}

/** lstat, or undefined for a path that is not there (ENOENT, or ENOTDIR below a file). */
function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
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

function confineReal(realRoot: string, path: string, what: string): void {
  const real = realTarget(path);
  if (!isInside(realRoot, real)) {
    throw new BatonError(
      'unsafe_path',
      `${what} ${path} leads outside ${realRoot} through a symlink (to ${real}); remove the symlink or make it point inside`,
    );
  }
}

/**
 * This user's own folder under the shared temp folder, `${TMPDIR:-os.tmpdir()}/baton-<uid>/`
 * (plus `sub`), for the hook debug log, the status line cache, the Stop hook's memory and the
 * code cache. Created with mode 0700 and used only while it is a real folder (not a symlink)
 * owned by this uid that no one else may enter: in a shared /tmp another user could otherwise
 * pre-create it, read what is written there or plant symlinks in it. Undefined when unusable;
 * callers then do without (every use is a cache or a log).
 */
export function userTempDir(env: Record<string, string | undefined>, sub?: string): string | undefined {
  const uid = process.getuid?.();
  const base = join(env.TMPDIR || tmpdir(), `baton-${uid ?? 'user'}`);
  const dir = sub === undefined ? base : join(base, sub);
  for (const folder of sub === undefined ? [base] : [base, dir]) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    try {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)))
        return undefined;
    } catch {
      return undefined;
    }
  }
  return dir;
}

const OPEN_FLAGS = { a: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 'r+': constants.O_RDWR } as const;

/**
 * open(2) for a write in place (append, truncate) that never follows a symlink at the file's own
 * name: a link planted inside a checked folder (a history segment linked elsewhere) is refused
 * with exit 4 instead of written through.
 */
export function openNoFollow(path: string, flags: keyof typeof OPEN_FLAGS, mode = 0o666): number {
  try {
    return openSync(path, OPEN_FLAGS[flags] | (constants.O_NOFOLLOW ?? 0), mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new BatonError(
      'unsafe_path',
      `${path} is a symlink; baton writes its own files only in place, remove the link`,
    );
  }
}
