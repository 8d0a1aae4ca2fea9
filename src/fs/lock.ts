/**
 * Cross-process lock as an exclusively created lock file holding an owner record.
 *
 * Why not flock: Node has no flock binding, and a native addon would need a compiler at install
 * time and ~1 ms per hook to load. A lock file behaves safely if taking it over is strict, so:
 * - the owner record is `pid`, host, acquisition time (ms), a random token, and the kernel start
 *   time of the pid (so a recycled pid does not look alive);
 * - a holder on this host is taken over only once it is dead. Its age never counts: a stopped
 *   (SIGSTOP) or slow process is alive and will still commit;
 * - a holder on another host cannot be asked, so it keeps its lock fresh (a heartbeat touches
 *   the lock's mtime while it is held, as proper-lockfile does) and is taken over only when that
 *   heartbeat is older than `staleMs`. A holder that wakes up after that finds out at its commit
 *   fence (`verify`) and writes nothing;
 * - an unreadable or half-written record is never evidence of death;
 * - takers serialise on a `.steal` guard (a lock of its own), re-check, rename the lock aside
 *   and confirm it is the very file they judged (same inode and token) before deleting it;
 * - waiters sleep, woken early by a watch on the lock's folder where the platform has one, and
 *   poll cheaply (one lstat) otherwise. The wait budget counts from the last time the lock
 *   changed hands: a long queue that keeps moving never times out, a hung holder does.
 */
import {
  closeSync,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  utimesSync,
  watch,
  writeSync,
  type FSWatcher,
} from 'node:fs';
import { hostname } from './lazy-os.js';
import { dirname } from 'node:path';
import { BatonError, systemFix } from '../core/errors.js';
import { uniqueHex } from '../core/hash.js';
import { DEFAULT_LOCK_TIMEOUT_MS, runtimeOptions } from '../core/runtime-options.js';
import { makeDir, tempPathFor, unlinkQuietly } from './atomic.js';
import { isReadRefusal, LOCK_RECORD_MAX_BYTES, readFileBounded } from './bounded-read.js';

export interface LockOptions {
  /** How long to wait while the lock does not change hands before failing with `lock_timeout` (default 30 s). */
  timeoutMs?: number;
  /** Heartbeat age past which a holder on another host is presumed gone (default 60 s, or BATON_LOCK_STALE_MS). */
  staleMs?: number;
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
  /** Throws `lock_lost` unless the lock file is still this very one (same inode and token). */
  verify(): void;
  release(): void;
}

/** The steal guard is held for microseconds, so its age alone may count against it. */
const GUARD_STALE_MS = 10_000;
/** Hand-overs a waiter watches for before it falls back to polling. */
const WATCH_HAND_OVERS = 3;
/** How long a waiter lets a lock be before judging its holder (liveness, heartbeat age), and again. */
const REJUDGE_MS = 500;
let host: string | undefined;

/**
 * The identity recorded in locks, one per process: read on first use, not when the module loads.
 * BATON_HOST_ID overrides the hostname where it does not tell machines (or pid namespaces) apart,
 * e.g. containers sharing a folder under one hostname.
 */
export function localHost(): string {
  return (host ??= runtimeOptions(process.env).hostId ?? hostname());
}

/** The stale limit of a caller that was given none (the library's default: this process's env). */
export function defaultStaleMs(): number {
  return runtimeOptions(process.env).lockStaleMs;
}

export async function acquireLock(path: string, options: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? defaultStaleMs();
  const createDir = options.createDir ?? true;
  const wake = new Wake(path);
  let deadline = Date.now() + timeoutMs;
  // What this waiter knows of the lock: its inode, its token once read, and when it was judged.
  let ino: number | undefined;
  let token: string | undefined;
  let judgedAt = 0;
  let handOvers = 0;
  try {
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const current = inodeOf(path);
      if (current === undefined) {
        const handle = tryCreate(path, createDir, staleMs, options.ownerPid);
        if (handle) return handle;
        continue;
      }
      if (current !== ino) {
        // The lock changed hands: the queue is moving, so the wait budget starts again. Its new
        // holder is alive; it is read and judged once it has held the lock a while, which spares
        // every waiter a read and a liveness check per hand-over.
        if (ino !== undefined) {
          deadline = now + timeoutMs;
          judgedAt = now;
          // A waiter that has seen a few hand-overs is in a long queue: it stops watching and
          // polls, so a release wakes the few recent waiters instead of all of them (the herd
          // cost more CPU than it saved in 200-writer runs).
          if (++handOvers === WATCH_HAND_OVERS) wake.close();
        }
        ino = current;
        token = undefined;
      }
      if (now - judgedAt >= REJUDGE_MS) {
        const seen = inspectLock(path);
        if (!seen) continue;
        // Inode numbers are reused, so a new token is a hand-over too.
        if (seen.ino !== ino || (token !== undefined && seen.owner?.token !== token)) deadline = now + timeoutMs;
        ino = seen.ino;
        token = seen.owner?.token;
        judgedAt = now;
        if (isStale(seen, staleMs, now)) {
          if (steal(path, seen)) continue;
          // Another taker is at it (or its guard was just cleared): judge again after the nap.
          judgedAt = 0;
        }
      }
      if (now >= deadline) throw timeoutError(path, inspectLock(path), timeoutMs, options.label);
      await wake.wait(Math.min(backoff(attempt, wake.watching), deadline - now), current);
    }
  } finally {
    wake.close();
  }
}

/**
 * Starts at ~1 ms and grows, jittered so waiters do not wake in lockstep. Polling is one lstat, so
 * many waiters polling still hand the lock over within a fraction of the cap; with a watch the
 * poll is only a fallback (for a lock released on another host, or a missed event).
 */
function backoff(attempt: number, watching: boolean): number {
  const base = Math.min(1.6 ** attempt, watching ? 250 : 100);
  return base * (0.5 + Math.random());
}

/**
 * Wakes a waiter when the lock file it waits on changes or goes. It watches the lock file itself,
 * not its folder, so the temp files of other waiters wake no one. One inotify instance per
 * process, and a user may have only 128 of them: when no watch can be had, waiting polls.
 */
class Wake {
  private watcher: FSWatcher | undefined;
  private watchedIno: number | undefined;
  private failed = false;
  private wakeUp: (() => void) | undefined;

  constructor(private readonly path: string) {}

  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** Sleeps up to `ms`, or until the lock file `ino` changes or goes. */
  async wait(ms: number, ino: number): Promise<void> {
    if (!this.failed && this.watchedIno !== ino) {
      this.watcher?.close();
      this.watcher = undefined;
      this.watchedIno = undefined;
      try {
        this.watcher = watch(this.path, { persistent: false }, () => this.wakeUp?.());
        this.watcher.on('error', () => this.close());
        this.watchedIno = ino;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        this.failed = true;
      }
      // A release between the caller's look and the watch's start would go unseen: look again.
      if (inodeOf(this.path) !== ino) return;
    }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.failed = true;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

/**
 * The owner record is written to a temp file first and hard-linked to the lock name: link is
 * atomic and fails if the name exists, so a lock file never exists without its whole record. A
 * holder killed between creating and filling the lock would otherwise leave a record-less lock
 * that no one may judge stale (the crash test caught exactly this).
 */
function tryCreate(path: string, createDir: boolean, staleMs: number, pid = process.pid): LockHandle | undefined {
  const owner: LockOwner = {
    pid,
    host: localHost(),
    acquiredAt: Date.now(),
    token: uniqueHex(16),
    procStart: startOf(pid),
  };
  const temp = tempPathFor(path);
  let ino: number;
  try {
    ino = writeRecord(temp, formatOwner(owner));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && createDir) {
      makeDir(dirname(path));
      return tryCreate(path, false, staleMs, pid);
    }
    throw lockIoError(path, error);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw lockIoError(path, error);
  } finally {
    unlinkQuietly(temp);
  }
  return holding(path, owner.token, ino, staleMs);
}

/** Writes the record; on any failure (a full disk) removes the half-made file. */
function writeRecord(temp: string, record: string): number {
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    writeSync(fd, record);
    const { ino } = fstatSync(fd);
    closeSync(fd);
    fd = undefined;
    return ino;
  } catch (error) {
    if (fd !== undefined) {
      closeSync(fd);
      unlinkQuietly(temp);
    }
    throw error;
  }
}

function lockIoError(path: string, error: unknown): BatonError {
  return new BatonError('io', `cannot create lock ${path}: ${systemFix(error) ?? (error as Error).message}`, {
    cause: error,
  });
}

/** How many microtasks a hold may take before its heartbeat check waits for the tick queue (holding). */
const RELEASE_HOPS = 64;

/**
 * The handle of a held lock: its heartbeat runs until release, without keeping the process up.
 * It is armed only once the hold reaches the event loop: a beat can fire nowhere else, and a CLI
 * write holds and releases within one turn, where arming Node's first interval cost ~0.4 ms CPU.
 * The check is a nextTick: queued from a microtask (an awaited acquire), it runs once the
 * holder's continuation has run as far as it can without the loop. A hold that was longer than a
 * beat's period by then beats at once, as the interval's first, overdue beat would have.
 *
 * The nextTick is queued only after RELEASE_HOPS microtasks find the lock still held. A CLI
 * write releases within 8-31 of them (its continuations between acquire and release), and a
 * process's first nextTick costs it 1.6 M instructions (Node compiles its tick queue, async
 * hooks and promise-rejection functions: docs/benchmarks.md); a hop is a resolved promise's
 * callback, a few hundred. Microtasks all run before the loop, so the heartbeat is still armed
 * before a hold can reach it.
 */
function holding(path: string, token: string, ino: number, staleMs: number): LockHandle {
  const period = Math.max(staleMs / 4, 25);
  const heldAt = Date.now();
  let released = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let hops = 0;
  const arm = (): void => {
    if (released) return;
    heartbeat = setInterval(() => touchIfOurs(path, token), period);
    heartbeat.unref();
    if (Date.now() - heldAt >= period) touchIfOurs(path, token);
  };
  const recheck = (): void => {
    if (released) return;
    if (++hops < RELEASE_HOPS) void Promise.resolve().then(recheck);
    else process.nextTick(arm);
  };
  void Promise.resolve().then(recheck);
  return {
    path,
    token,
    verify: () => {
      const now = inspectLock(path);
      if (now?.ino === ino && now.owner?.token === token) return;
      throw new BatonError(
        'lock_lost',
        `lost the lock ${path} while holding it (${now ? `now held by pid ${now.owner?.pid ?? '?'} on ${now.owner?.host ?? '?'}` : 'it was removed'}); nothing was written; retry`,
      );
    },
    release: () => {
      released = true;
      // A hold released within its turn armed no interval: clearInterval(undefined) would still
      // compile Node's clearInterval and clearTimeout in every CLI write.
      if (heartbeat !== undefined) clearInterval(heartbeat);
      releaseLock(path, token);
    },
  };
}

function touchIfOurs(path: string, token: string): void {
  if (ownerQuietly(path)?.token !== token) return;
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // the next beat tries again; a takeover is caught by the commit fence
  }
}

/** Removes the lock only while it is still ours; never touches the folder or anything else. */
export function releaseLock(path: string, token: string): void {
  const current = ownerQuietly(path);
  if (current?.token === token) unlinkQuietly(path);
}

export interface SeenLock {
  owner: LockOwner | undefined;
  ino: number;
  mtimeMs: number;
}

export function inspectLock(path: string): SeenLock | undefined {
  try {
    const stat = lstatSync(path);
    return { owner: readOwner(path), ino: stat.ino, mtimeMs: stat.mtimeMs };
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return undefined;
  }
}

/** The record for a holder checking its own lock: a refused one is not ours (and a heartbeat must not throw). */
function ownerQuietly(path: string): LockOwner | undefined {
  try {
    return readOwner(path);
  } catch {
    return undefined;
  }
}

/**
 * A holder on this host is stale only when dead. Anything else (another host, or a record that
 * cannot be read) only when its heartbeat, the lock's mtime, is older than `staleMs`.
 */
export function isStale(seen: SeenLock, staleMs: number, now = Date.now()): boolean {
  const owner = seen.owner;
  if (owner?.host === localHost()) return !isAlive(owner);
  return now - seen.mtimeMs > staleMs;
}

/**
 * Whether a pid names a live process on this host (EPERM still means it exists). A zombie (state
 * Z: killed, not yet reaped by its parent) or a dying one (X) answers signal 0 but will never
 * release anything, and under a PID 1 that does not reap it stays a zombie forever: it is dead.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  const state = procStat(pid)?.state;
  return state !== 'Z' && state !== 'X' && state !== 'x';
}

export function isAlive(owner: LockOwner): boolean {
  if (!pidAlive(owner.pid)) return false;
  const start = procStat(owner.pid)?.start;
  return owner.procStart === '' || start === undefined || start === owner.procStart;
}

/**
 * Takers take a guard first (itself a lock with an owner record, so a taker killed while holding
 * it is recognised as dead at once rather than blocking every takeover until it ages out).
 * The guard only keeps takers from colliding; safety rests on rename-and-confirm.
 */
function steal(path: string, judged: SeenLock): boolean {
  const guardPath = `${path}.steal`;
  const guard = tryCreate(guardPath, false, GUARD_STALE_MS);
  if (!guard) {
    const other = inspectLock(guardPath);
    if (
      other &&
      (isStale(other, GUARD_STALE_MS) || Date.now() - (other.owner?.acquiredAt ?? other.mtimeMs) > GUARD_STALE_MS)
    )
      takeAside(guardPath, other);
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

/** Leftovers of a taker killed between its rename and its delete look like `NAME.lock.stale.HEX`. */
export const STALE_ASIDE_PATTERN = /^(.+)\.stale\.[0-9a-f]{12}$/;

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

/**
 * The lock's record; undefined when it is gone or not a record. A record past LOCK_RECORD_MAX_BYTES
 * or a FIFO or device at the lock's name was never written by baton (records are written whole
 * and linked in): that is refused, naming the file, rather than waited on or read without end.
 */
export function readOwner(path: string): LockOwner | undefined {
  let text: string;
  try {
    text = readFileBounded(
      path,
      LOCK_RECORD_MAX_BYTES,
      `lock record ${path}`,
      'baton writes five short lines there; remove the file once no baton process is running on it',
    );
  } catch (error) {
    if (isReadRefusal(error)) throw error;
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

let ownStart: string | undefined;

/** The kernel start time of `pid` for its lock record; this process's own is read once (it cannot change). */
function startOf(pid: number): string {
  if (pid !== process.pid) return procStat(pid)?.start ?? '';
  return (ownStart ??= procStat(pid)?.start ?? '');
}

/** /proc/PID/stat is one line of 52 numbers and a command name of at most 16 bytes. */
const PROC_STAT_MAX_BYTES = 4096;

/**
 * Fields 3 (state) and 22 (start time in clock ticks since boot) of /proc/PID/stat; absent off
 * Linux. The command name (field 2) may hold spaces and parentheses, hence the last ')'.
 */
function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = readFileBounded(`/proc/${pid}/stat`, PROC_STAT_MAX_BYTES, `/proc/${pid}/stat`, 'check /proc');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

function timeoutError(path: string, seen: SeenLock | undefined, timeoutMs: number, label?: string): BatonError {
  const owner = seen?.owner;
  const holder = owner
    ? `pid ${owner.pid} on ${owner.host} for ${Math.round((Date.now() - owner.acquiredAt) / 1000)}s`
    : 'a process whose record is not readable';
  return new BatonError(
    'lock_timeout',
    `timed out after ${timeoutMs / 1000}s waiting for the lock on ${label ?? path}, held by ${holder}; retry, or stop that process if it is hung (lock file ${path})`,
  );
}

const inProcess = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` holding the lock. Callers in the same process queue in memory first, so they do not
 * poll the lock file against each other; the file lock then excludes other processes. `fn` gets
 * the handle, to fence its commit with `verify()`.
 */
export async function withLock<T>(
  path: string,
  options: LockOptions,
  fn: (lock: LockHandle) => T | Promise<T>,
): Promise<T> {
  const previous = inProcess.get(path) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const handle = await acquireLock(path, options);
      try {
        return await fn(handle);
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
