import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import { isInside, realTarget } from '../fs/confine.js';

/**
 * Evidence and work-item paths are relative to the project root and must stay inside it: a gate
 * that followed `../../etc/passwd` or a symlink out of the tree would "verify" a file the run
 * never produced. Paths are stored root-relative, so they survive moving the checkout (`.ai_log/phase-5-x.log`).
 */
export function projectRelative(path: string, root: string, what: string): string {
  if (path === '' || /[\u0000-\u001f\u007f]/.test(path)) {
    throw new BatonError(
      'usage',
      `${what} path ${JSON.stringify(path)} is empty or has control characters; give a path relative to the project root`,
    );
  }
  const absolute = resolve(root, path);
  if (!isInside(root, absolute)) {
    throw new BatonError(
      'usage',
      `${what} path ${path} is outside the project ${root}; save the file under .ai_log/ or docs/ and pass that path`,
    );
  }
  // A symlink (the file itself or a folder on the way) that leads out is refused like `..`.
  const real = realTarget(absolute);
  if (!isInside(realTarget(root), real)) {
    throw new BatonError(
      'usage',
      `${what} path ${path} leads outside the project through a symlink (to ${real}); save the file under .ai_log/ or docs/ and pass that path`,
    );
  }
  return isAbsolute(path) ? relative(root, absolute) || '.' : path;
}

export type PathState = 'ok' | 'missing' | 'empty' | 'outside';

/** What a gate finds at a stored path: an existing non-empty file or folder inside the project. */
export function inspectPath(path: string, root: string): PathState {
  const absolute = resolve(root, path);
  if (!isInside(root, absolute)) return 'outside';
  if (!existsSync(absolute)) return 'missing';
  // A symlink inside the tree that points out of it is as good as a path outside.
  const realRoot = realpathSync(root);
  if (!isInside(realRoot, realpathSync(absolute))) return 'outside';
  const stat = statSync(absolute);
  return stat.isFile() && stat.size === 0 ? 'empty' : 'ok';
}

/** True when a stored output value names a file the gate should check too. */
export function looksLikeProjectPath(value: unknown): value is string {
  return typeof value === 'string' && /^(\.ai_log|docs)\/[^\s]+$/.test(value) && dirname(value) !== '.';
}
