import { BatonError } from '../core/errors.js';
import { FileStore } from './file/index.js';
import { portableFileStore } from './file/portable.js';
import type { PortableStore } from './portable.js';

/** Which store `baton store` works on: a URL as --store, BATON_STORE or the config name it, or none for the file store. */
export interface StoreTarget {
  url?: string | undefined;
  root: string;
  project?: string | undefined;
}

const POSTGRES = /^postgres(ql)?:\/\//i;

/**
 * A store to export from or import into, for the file store or PostgreSQL. The PostgreSQL store
 * (and `pg`) is loaded only here, when the URL names it.
 */
export async function openPortable(
  target: StoreTarget,
): Promise<{ kind: string; store: PortableStore; close(): Promise<void> }> {
  if (!target.url || /^file:(\/\/)?$/i.test(target.url)) {
    return { kind: 'file', store: portableFileStore(new FileStore(target.root)), close: async () => undefined };
  }
  if (POSTGRES.test(target.url)) {
    const { createPostgresStore } = await import('./postgres/index.js');
    const store = await createPostgresStore({
      url: target.url,
      root: target.root,
      ...(target.project ? { project: target.project } : {}),
    });
    return { kind: 'postgres', store, close: () => store.close() };
  }
  throw new BatonError(
    'usage',
    'baton store export and import work on the file store and PostgreSQL; give a postgres:// URL or none',
  );
}

/** `baton store migrate`: creates or upgrades the PostgreSQL tables. */
export async function migrateStore(url: string | undefined): Promise<{ from: number; to: number }> {
  if (!url || !POSTGRES.test(url))
    throw new BatonError(
      'usage',
      'baton store migrate needs a PostgreSQL store: pass --store postgres://... or set BATON_STORE (the file store needs no migration)',
    );
  const { migratePostgres } = await import('./postgres/index.js');
  return migratePostgres(url);
}
