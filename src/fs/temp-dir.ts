/** The per-user temp folder for logs and caches, safe in a shared /tmp. */
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from './lazy-os.js';
import { join } from 'node:path';

/**
 * This user's own folder under the shared temp folder, `${TMPDIR:-os.tmpdir()}/baton-<uid>/`
 * (plus `sub`), for the hook debug log, the status line cache, the Stop hook's memory and the
 * code cache. Created with mode 0700 and used only while it is a real folder (not a symlink)
 * owned by this uid that no one else may enter: in a shared /tmp another user could otherwise
 * pre-create it, read what is written there or plant symlinks in it. Undefined when unusable;
 * callers then do without (every use is a cache or a log). `create: false` only finds it, for a
 * reader that must not leave a folder behind when there is nothing to read.
 */
export function userTempDir(
  env: Record<string, string | undefined>,
  sub?: string,
  { create = true }: { create?: boolean } = {},
): string | undefined {
  const uid = process.getuid?.();
  const base = join(env.TMPDIR || tmpdir(), `baton-${uid ?? 'user'}`);
  const dir = sub === undefined ? base : join(base, sub);
  for (const folder of sub === undefined ? [base] : [base, dir]) {
    if (create)
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
