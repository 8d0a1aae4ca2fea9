/**
 * Every store backend, by kind: how it opens, what `baton store migrate|export|import` do with it,
 * and the names it keeps in a project; its schemes and spelling are in schemes.ts (plain data for
 * start-up paths). Open, the hooks, `baton store`, help and errors all read these two. Adding a
 * backend touches its own folder, these two tables and the conformance list
 * (test/conformance/stores.ts); docs/architecture.md has the recipe.
 */
import { BatonError } from '../core/errors.js';
import { DeferredStore } from './deferred.js';
import { FileStore, type FileStoreOptions } from './file/file-store.js';
import { SIDECAR } from './keys.js';
import { portableFileStore } from './file/file-portable.js';
import { MemoryStore } from './memory.js';
import type { PortableStore } from './portable.js';
import { kindOf, SCHEMES, STORE_SCHEMES, storeScheme, type StoreKind } from './schemes.js';
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

/** A store to export from or import into. */
export interface Portable {
  kind: string;
  store: PortableStore;
  close(): Promise<void>;
}

export interface Backend {
  /** Synchronous: a backend that needs a driver or a connection loads it on first use (DeferredStore). */
  open(options: StoreOptions & { url: string }): Store;
  /** `baton store export|import`; absent: not supported. */
  portable?(options: StoreOptions & { url: string }): Promise<Portable>;
  /** `baton store migrate`; absent: the backend needs none. */
  migrate?(url: string): Promise<{ from: number; to: number }>;
  /** A name the backend keeps beside documents in the project (the file store's `.baton/`). */
  ownsName?(name: string): boolean;
}

let memory: MemoryStore | undefined;

const postgres = (options: StoreOptions & { url: string }) => ({
  url: options.url,
  root: options.root,
  ...(options.project ? { project: options.project } : {}),
  ...(options.lockTimeoutMs ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
});

export const BACKENDS: Record<StoreKind, Backend> = {
  file: {
    open(options) {
      if (options.url && !/^file:(\/\/)?$/i.test(options.url))
        throw badStore(options.url, options.from, 'a file store takes no path: documents live where their paths say');
      return new FileStore(options.root, options);
    },
    ownsName: (name) => name === SIDECAR,
    async portable(options) {
      return { kind: 'file', store: portableFileStore(new FileStore(options.root)), close: async () => undefined };
    },
  },
  memory: {
    // One per process: every document opened with `memory:` sees the same documents.
    open: () => (memory ??= new MemoryStore()),
  },
  postgres: {
    // Loaded on first use: `pg` stays off the start-up path of every other store.
    open: (options) =>
      new DeferredStore('postgres', async () => {
        const { createPostgresStore } = await import('./postgres/postgres-store.js');
        return createPostgresStore(postgres(options));
      }),
    async portable(options) {
      const { createPostgresStore } = await import('./postgres/postgres-store.js');
      const store = await createPostgresStore(postgres(options));
      return { kind: 'postgres', store, close: () => store.close() };
    },
    async migrate(url) {
      const { migratePostgres } = await import('./postgres/postgres-store.js');
      return migratePostgres(url);
    },
  },
};

/** The backend a URL names, with its kind; unknown schemes are a usage error naming the known ones. */
export function backendFor(url: string | undefined, from?: string): Backend & { kind: StoreKind } {
  const kind = kindOf(url);
  if (!kind) throw badStore(url ?? '', from);
  return { ...BACKENDS[kind], kind };
}

/** The kinds whose backend offers `what`, for messages. */
export function kindsWith(what: keyof Backend): string {
  return SCHEMES.filter((entry) => what in BACKENDS[entry.kind])
    .map((entry) => entry.kind)
    .join(', ');
}

/** Whether a file or folder in the project is a store's own (never a document, never to remove by hand). */
export function isStoreFile(name: string): boolean {
  return Object.values(BACKENDS).some((backend) => backend.ownsName?.(name));
}

function badStore(url: string, from: string | undefined, why?: string): BatonError {
  return new BatonError(
    'usage',
    `${why ?? `unknown store '${storeScheme(url)}'`}${from ? ` (from ${from})` : ''}; use ${STORE_SCHEMES}`,
  );
}
