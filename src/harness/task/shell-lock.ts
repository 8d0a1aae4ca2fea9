/**
 * The original library's lock functions for shell callers (`eneo_acquire_lock` and
 * `eneo_release_lock` in compat/eneo/lib/state.sh), on baton's own lock files: the named lock is
 * `<stateDir>/.locks/<name>.lock`, so `state` is the one state lock every `baton task` write and
 * the wave barrier take. The lock is recorded as held by the calling shell (its pid), so it is
 * stale as soon as that shell dies. The handle printed is `<lock path>:<token>`. A `baton task`
 * write run with `BATON_LOCK_HOLDER_PID=<shell pid>` (what `eneo_task_update_unlocked` does)
 * works inside that shell's hold instead of waiting for it, and only while the shell holds it:
 * otherwise it takes the lock as every write does.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, isBatonError } from '../../core/errors.js';
import { confine } from '../../fs/confine.js';
import { acquireLock, isAlive, localHost, readOwner, releaseLock } from '../../fs/lock.js';
import { stateExit } from './task-errors.js';
import type { TaskSetup } from './setup.js';

const NAME = /^[A-Za-z0-9_-]+$/;

/** Inside the state folder after symlinks: a `.locks` linked elsewhere (into tests/) is refused, nothing created. */
function lockPath(setup: TaskSetup, name: string): string {
  return confine(setup.stateDir, resolve(setup.stateDir, '.locks', `${name}.lock`), 'lock file');
}

export async function shellLock(setup: TaskSetup, name: string, pid: number): Promise<string> {
  if (!NAME.test(name)) throw stateExit('usage', EXIT.usage, `invalid lock name: ${name} (letters, digits, - and _)`);
  // Locking never creates the state folder (the original created `.claude/state` in every project): only its .locks folder inside it.
  if (!existsSync(setup.stateDir))
    throw stateExit('not_found', EXIT.refused, `no state folder (${setup.stateDir}); run init first`);
  try {
    const handle = await acquireLock(lockPath(setup, name), {
      timeoutMs: setup.lockTimeoutMs,
      label: name,
      ownerPid: pid,
    });
    return `${handle.path}:${handle.token}`;
  } catch (error) {
    if (isBatonError(error, 'lock_timeout'))
      throw stateExit('lock_timeout', EXIT.refused, `timed out acquiring lock: ${name}`);
    throw error;
  }
}

export function shellUnlock(handle: string): void {
  const { path, token } = splitHandle(handle);
  if (path.endsWith('.lock')) releaseLock(path, token);
}

/** Whether the process `pid` (from the environment) holds the lock at `path` on this host. */
export function heldBy(pid: number | undefined, path: string): boolean {
  if (pid === undefined) return false;
  const owner = readOwner(path);
  return owner !== undefined && owner.pid === pid && owner.host === localHost() && isAlive(owner);
}

function splitHandle(handle: string): { path: string; token: string } {
  const at = handle.lastIndexOf(':');
  return at < 0 ? { path: handle, token: '' } : { path: handle.slice(0, at), token: handle.slice(at + 1) };
}
