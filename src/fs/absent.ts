import { lstatSync, statSync, type Stats } from 'node:fs';
import { BatonError, systemFix } from '../core/errors.js';

/**
 * Whether nothing is at `path`, told by one stat that throws nothing for a missing path (no
 * exception and stack per call). Not existsSync: it says "missing" for a path it cannot look at (a
 * link loop, a folder this user may not enter), so a rule's document that cannot be read would
 * pass as absent (a work board taken for none lifts every claim) where its read fails closed.
 */
export function absent(path: string): boolean {
  try {
    return statFollowing(path) === undefined;
  } catch {
    return false;
  }
}

/**
 * statSync(path, { throwIfNoEntry: false }), asked with lstat first: the two resolve the folders
 * on the way alike and differ only for a link at the end, which is then stat'ed. lstatSync is
 * compiled already by every command's path checks; statSync is Node's source a process compiles
 * on its first call, for these looks alone in most commands.
 */
export function statFollowing(path: string): Stats | undefined {
  const own = lstatSync(path, { throwIfNoEntry: false });
  return own?.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : own;
}

/**
 * Whether something is at `path`, for a name that marks its folder (a root marker, `.git`): one
 * that cannot be looked at (a link loop, a folder this user may not enter) still marks it, or the
 * project would be looked for elsewhere, where its state and rules are not. A file in place of a
 * folder on the way (ENOTDIR) means nothing can be there.
 */
export function present(path: string): boolean {
  try {
    return statFollowing(path) !== undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/** Whether a failed read found nothing at the path (ENOENT): the one failure that means absent, as absent() tells it. */
export function noEntry(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * The failed read of a file a rule, a gate or a barrier depends on, for any reason but nothing
 * there: one line naming the file and the fix, which a gated event is denied with (the rule
 * cannot be checked, so it is not taken as lifted).
 */
export function unreadable(what: string, path: string, error: unknown): BatonError {
  const why = systemFix(error) ?? (error instanceof Error ? error.message : String(error));
  return new BatonError('io', `${what} ${path} cannot be read, so the rule it decides cannot be checked: ${why}`, {
    cause: error,
  });
}
