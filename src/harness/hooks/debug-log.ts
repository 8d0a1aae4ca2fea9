/**
 * The hook debug log: `$BATON_DEBUG_LOG`, else `hooks.log` in this user's own temp folder
 * (`${TMPDIR:-/tmp}/baton-<uid>/`, mode 0700, see userTempDir). Hooks write here why they did
 * nothing (garbage stdin, a broken config, an internal error) because the host hides a hook's
 * stderr on success. Opened with O_NOFOLLOW: a symlink planted at the log's name is never written
 * through. Kept under ~1 MB by rotating to `.1`. Never throws.
 */
import { closeSync, constants, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { userTempDir } from '../../fs/temp-dir.js';

const MAX_BYTES = 1_000_000;
const FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

function debugLogPath(env: NodeJS.ProcessEnv): string | undefined {
  if (env.BATON_DEBUG_LOG) return env.BATON_DEBUG_LOG;
  const dir = userTempDir(env);
  return dir === undefined ? undefined : join(dir, 'hooks.log');
}

export function debugLog(env: NodeJS.ProcessEnv, event: string, lines: string[]): void {
  if (lines.length === 0) return;
  try {
    const file = debugLogPath(env);
    if (file === undefined) return;
    let fd = openSync(file, FLAGS, 0o600);
    if (fstatSync(fd).size > MAX_BYTES) {
      closeSync(fd);
      renameSync(file, `${file}.1`);
      fd = openSync(file, FLAGS, 0o600);
    }
    const stamp = new Date().toISOString();
    try {
      writeSync(
        fd,
        lines.map((line) => `${stamp} pid=${process.pid} ${event || '-'} ${line.replaceAll('\n', '\\n')}\n`).join(''),
      );
    } finally {
      closeSync(fd);
    }
  } catch {
    // a debug log must never break a hook
  }
}
