import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatonError } from '../../core/errors.js';
import { uniqueHex } from '../../core/hash.js';
import { tempPathFor, unlinkQuietly } from './atomic.js';

/**
 * Cross-process lock as an exclusively created lock file holding an owner record.
 *
 * Why not flock: Node has no flock binding, and a native addon would need a compiler at install
 * time and ~1 ms per hook to load. A lock file behaves safely if stealing is strict, so:
 * - the owner record is `pid`, host, acquisition time (ms), a random token, and the kernel start
 *   time of the pid (so a recycled pid does not look alive);
 * - a lock is stolen only from a dead holder on this host, or past a hard ceiling that is longer
 *   than any waiter's budget; an unreadable or half-written record is never evidence of death;
 * - stealers serialise on a `.steal` guard (a lock of its own), re-check, rename the lock aside
 *   and confirm it is the very file they judged (same inode and token) before deleting it;
 * - waiting sleeps with growing, jittered delays and every pass counts against the deadline.
 */
export interface LockOptions {
  /** How long to wait for the lock before failing with `lock_timeout` (default 30 s). */
  timeoutMs?: number;
  /** Age past which any lock is stolen even from a live or foreign holder (default max(2 x timeout, 60 s)). */
  ceilingMs?: number;
  /** Create the lock's folder when missing (default true). */
  createDir?: boolean;
  /** Label used in error messages (the document path). */
  label?: string;
  /**
   * The process the lock belongs to, when it is not this one: `baton task lock` takes the lock
   * for the shell that called it (compat/eneo/lib/state.sh), so it is stale once that shell dies.
   */
  ownerPid?: number;
}

export interface LockOwner {
  pid: number;
  host: string;
  acquiredAt: number;
  token: string;
  procStart: string;
}

export interface LockHandle {
  readonly path: string;
  readonly token: string;
  release(): void;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
const GUARD_CEILING_MS = 10_000;
const HOST = hostname();

export async function acquireLock(path: string, options: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const ceilingMs = options.ceilingMs ?? Math.max(2 * timeoutMs, 60_000);
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const handle = tryCreate(path, options.createDir ?? true, options.ownerPid);
    if (handle) return handle;
    const seen = inspectLock(path);
    if (seen && isStale(seen, ceilingMs) && steal(path, seen)) continue;
    const now = Date.now();
    if (now >= deadline) throw timeoutError(path, seen, timeoutMs, options.label);
    await sleep(Math.min(backoff(attempt), deadline - now));
  }
}

/** Starts at ~1 ms and grows to ~40 ms, jittered so waiters do not wake in lockstep. */
function backoff(attempt: number): number {
  const base = Math.min(1 * 1.6 ** attempt, 40);
  return base * (0.5 + Math.random());
}

/**
 * The owner record is written to a temp file first and hard-linked to the lock name: link is
 * atomic and fails if the name exists, so a lock file never exists without its whole record. A
 * holder killed between creating and filling the lock would otherwise leave a record-less lock
 * that no one may judge stale until the ceiling (the crash test caught exactly this).
 */
function tryCreate(path: string, createDir: boolean, pid = process.pid): LockHandle | undefined {
  const owner: LockOwner = {
    pid,
    host: HOST,
    acquiredAt: Date.now(),
    token: uniqueHex(16),
    procStart: processStart(pid) ?? '',
  };
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, formatOwner(owner), { flag: 'wx', mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && createDir) {
      mkdirSync(dirname(path), { recursive: true });
      return tryCreate(path, false, pid);
    }
    throw new BatonError('io', `cannot create lock ${path}: ${(error as Error).message}; check the folder is writable`);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw new BatonError('io', `cannot create lock ${path}: ${(error as Error).message}; check the folder is writable`);
  } finally {
    unlinkQuietly(temp);
  }
  return {
    path,
    token: owner.token,
    release: () => releaseLock(path, owner.token),
  };
}

/** Removes the lock only while it is still ours; never touches the folder or anything else. */
export function releaseLock(path: string, token: string): void {
  const current = readOwner(path);
  if (current?.token === token) unlinkQuietly(path);
}

interface SeenLock {
  owner: LockOwner | undefined;
  ino: number;
  mtimeMs: number;
}

export function inspectLock(path: string): SeenLock | undefined {
  try {
    const stat = lstatSync(path);
    return { owner: readOwner(path), ino: stat.ino, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

export function isStale(seen: SeenLock, ceilingMs: number, now = Date.now()): boolean {
  const age = now - (seen.owner?.acquiredAt ?? seen.mtimeMs);
  if (age > ceilingMs) return true;
  const owner = seen.owner;
  if (!owner || owner.host !== HOST) return false;
  return !isAlive(owner);
}

/** Whether a pid names a process on this host (EPERM still means it exists). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export function isAlive(owner: LockOwner): boolean {
  if (!pidAlive(owner.pid)) return false;
  const start = processStart(owner.pid);
  return owner.procStart === '' || start === undefined || start === owner.procStart;
}

/**
 * Stealers take a guard first (itself a lock with an owner record, so a stealer killed while
 * holding it is recognised as dead at once rather than blocking every steal until it ages out).
 * The guard only keeps stealers from colliding; safety rests on rename-and-confirm.
 */
function steal(path: string, judged: SeenLock): boolean {
  const guard = tryCreate(`${path}.steal`, false);
  if (!guard) {
    const other = inspectLock(`${path}.steal`);
    if (other && isStale(other, GUARD_CEILING_MS)) takeAside(`${path}.steal`, other);
    return false;
  }
  try {
    const now = inspectLock(path);
    if (!now || now.ino !== judged.ino || now.owner?.token !== judged.owner?.token) return false;
    return takeAside(path, judged);
  } finally {
    guard.release();
  }
}

/** Renames the entry aside and deletes it if it is the very file judged; otherwise puts it back. */
function takeAside(path: string, judged: SeenLock): boolean {
  const aside = `${path}.stale.${uniqueHex(12)}`;
  try {
    renameSync(path, aside);
  } catch {
    return false;
  }
  const moved = inspectLock(aside);
  if (moved?.ino !== judged.ino) {
    try {
      linkSync(aside, path);
    } catch {
      // a fresh entry took the name meanwhile; the moved one was never ours to keep
    }
    unlinkQuietly(aside);
    return false;
  }
  unlinkQuietly(aside);
  return true;
}

export function readOwner(path: string): LockOwner | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, host, acquiredAt, token, procStart] = text.split('\n');
  if (!pid || !host || !acquiredAt || !token || procStart === undefined) return undefined;
  const owner = { pid: Number(pid), host, acquiredAt: Number(acquiredAt), token, procStart };
  return Number.isInteger(owner.pid) && Number.isFinite(owner.acquiredAt) ? owner : undefined;
}

function formatOwner(owner: LockOwner): string {
  return `${owner.pid}\n${owner.host}\n${owner.acquiredAt}\n${owner.token}\n${owner.procStart}\n`;
}

/** Field 22 of /proc/PID/stat: start time in clock ticks since boot; absent off Linux. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function timeoutError(path: string, seen: SeenLock | undefined, timeoutMs: number, label?: string): BatonError {
  const owner = seen?.owner;
  const holder = owner
    ? `pid ${owner.pid} on ${owner.host} for ${Math.round((Date.now() - owner.acquiredAt) / 1000)}s`
    : 'a process whose record is not readable yet';
  return new BatonError(
    'lock_timeout',
    `timed out after ${timeoutMs / 1000}s waiting for the lock on ${label ?? path}, held by ${holder}; retry, or stop that process if it is hung (lock file ${path})`,
  );
}

const inProcess = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` holding the lock. Callers in the same process queue in memory first, so they do not
 * poll the lock file against each other; the file lock then excludes other processes.
 */
export async function withLock<T>(path: string, options: LockOptions, fn: () => T | Promise<T>): Promise<T> {
  const previous = inProcess.get(path) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(async () => {
    const handle = await acquireLock(path, options);
    try {
      return await fn();
    } finally {
      handle.release();
    }
  });
  inProcess.set(path, run);
  try {
    return await run;
  } finally {
    if (inProcess.get(path) === run) inProcess.delete(path);
  }
}
