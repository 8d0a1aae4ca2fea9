/**
 * Line 2 on a shared store (PostgreSQL): the task document is a row, not a file on this machine,
 * so it is read through the store, within STORE_BUDGET_MS and with no retries, and kept in the
 * status line's cache for CACHE_TTL_MS (statusline.ts reads a fresh one without loading this bundle). The host refreshes the line several times a second: most
 * runs read the cache; one in a few seconds pays for a connection and a query. When the store
 * cannot be reached the last value read stands (the line is never blank where a task exists).
 * A bundle of its own, loaded only for a shared store: the file store's line loads none of this.
 */
import type { Json } from '../../core/json.js';
import { openDoc } from '../../doc/open.js';
import { cachedTask, writeCache } from './cache.js';

/** The budget for reaching the store: a status line that waits longer is cancelled by the host anyway. */
const STORE_BUDGET_MS = 300;

/** Reads the task through the store and caches it as `name`; on failure, the `cached` row stands. */
export async function sharedTask(
  url: string,
  root: string,
  task: string,
  env: NodeJS.ProcessEnv,
  name: string,
  cached: string | undefined,
): Promise<Json | undefined> {
  const doc = openDoc(task, {
    cwd: root,
    env: { ...env, BATON_STORE: url, BATON_ROOT: root },
    connectTimeoutMs: STORE_BUDGET_MS,
  });
  try {
    // The store's read, not the Doc's: the status line writes no mirror files.
    const read = await doc.store.read(doc.key);
    const value = read.state === 'ok' ? read.doc : undefined;
    writeCache(env, name, JSON.stringify(value ?? null));
    return value;
  } catch {
    return cached === undefined ? undefined : cachedTask(cached);
  } finally {
    await doc.store.close().catch(() => undefined);
  }
}
