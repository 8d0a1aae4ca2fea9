/**
 * Small files under `${TMPDIR:-/tmp}/baton-<uid>/statusline/`: git counts per session and folder,
 * and the last good output per session. userTempDir creates that folder 0700 and refuses one
 * another user pre-created or linked elsewhere (the cache is then not used). Writes are atomic (temp file and rename) because
 * the host cancels a running status line when the next update fires: a half-written cache would
 * otherwise be read back as the "last good" line. Not stores/file/atomic.ts: that one fsyncs and
 * its fsyncs cost more than a status line refresh can pay, and a cache is derived data that may be
 * lost. Every function here swallows I/O errors: a cache
 * that cannot be used is only slower, never a failure.
 */
import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a32 as fingerprint } from '../../core/hash.js';
import type { Json } from '../../core/json.js';
import { userTempDir } from '../../fs/temp-dir.js';
import { readStateText } from '../task/state-read.js';

const CACHE_TTL_MS = 5000;

export function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  return userTempDir(env, 'statusline');
}

function safe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
}

/** Git cache key: session and folder, so two folders in one session never share counts. */
export function gitKey(sessionId: string | undefined, dir: string): string | undefined {
  return sessionId === undefined ? undefined : `${safe(sessionId)}-${fingerprint(dir)}`;
}

export function lastGoodName(sessionId: string | undefined): string {
  return `${sessionId === undefined ? 'no-session' : safe(sessionId)}.last`;
}

export function readCache(
  env: NodeJS.ProcessEnv,
  name: string,
  now = Date.now(),
): { text: string; fresh: boolean } | undefined {
  try {
    const dir = cacheDir(env);
    if (dir === undefined) return undefined;
    const path = join(dir, name);
    const age = now - statSync(path).mtimeMs;
    return { text: readStateText(path), fresh: age >= 0 && age < CACHE_TTL_MS };
  } catch {
    return undefined;
  }
}

export function writeCache(env: NodeJS.ProcessEnv, name: string, text: string): void {
  const dir = cacheDir(env);
  if (dir === undefined) return;
  const target = join(dir, name);
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    renameSync(temp, target);
  } catch {
    // a read-only or full TMPDIR only costs speed
    try {
      unlinkSync(temp);
    } catch {
      // no temp file was left
    }
  }
}

/** The cache of a shared store's task row: per store, project, root and task path. */
export function taskCacheName(url: string, env: NodeJS.ProcessEnv, root: string, task: string): string {
  return `task-${fingerprint(`${url}\0${env.BATON_PROJECT ?? ''}\0${root}\0${task}`)}.json`;
}

/** A cached task row: the document, or undefined for none (or a cache that does not parse). */
export function cachedTask(text: string): Json | undefined {
  try {
    return (JSON.parse(text) as Json) ?? undefined;
  } catch {
    return undefined;
  }
}
