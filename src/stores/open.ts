import { BatonError } from '../core/errors.js';
import { STORE_SCHEMES, storeScheme } from './choice.js';
import { DeferredStore } from './deferred.js';
import { FileStore, type FileStoreOptions } from './file/index.js';
import { MemoryStore } from './memory.js';
import type { Store } from './store.js';

export interface StoreOptions extends FileStoreOptions {
  /** A store URL (see STORE_SCHEMES); none is the embedded file store. */
  url?: string | undefined;
  /** Where the URL came from (`--store`, BATON_STORE, ...), named in errors. */
  from?: string | undefined;
  /** The project root: the file store's folder; a shared store derives its default project id from it. */
  root: string;
  /** Scopes documents in a shared store (default: from the git remote, else the root's path). */
  project?: string | undefined;
  /** A shared store's budget for reaching its server, with no retries (hooks; see PostgresStoreOptions). */
  connectTimeoutMs?: number | undefined;
}

let memory: MemoryStore | undefined;

/**
 * The one place a store is made, for every face (CLI, library, hooks, compat scripts, the doctor,
 * MCP, UI). Synchronous: a shared store loads its driver and connects on first use, so a path
 * that returns before reading anything never pays for it.
 */
export function openStore(options: StoreOptions): Store {
  const { url, root } = options;
  const scheme = storeScheme(url);
  switch (scheme) {
    case '':
    case 'file:':
      if (url && !/^file:(\/\/)?$/i.test(url))
        throw badStore(url, options.from, 'a file store takes no path: documents live where their paths say');
      return new FileStore(root, options);
    case 'memory:':
      // One per process: every document opened with `memory:` sees the same documents.
      memory ??= new MemoryStore();
      return memory;
    case 'postgres:':
    case 'postgresql:':
      // Loaded here, on first use: `pg` stays off the start-up path of every other store.
      return new DeferredStore('postgres', async () => {
        const { createPostgresStore } = await import('./postgres/index.js');
        return createPostgresStore({
          url: url as string,
          root,
          ...(options.project ? { project: options.project } : {}),
          ...(options.lockTimeoutMs ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
          ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        });
      });
    default:
      throw badStore(url ?? '', options.from);
  }
}

function badStore(url: string, from: string | undefined, why?: string): BatonError {
  return new BatonError(
    'usage',
    `${why ?? `unknown store '${storeScheme(url)}'`}${from ? ` (from ${from})` : ''}; use ${STORE_SCHEMES}`,
  );
}
