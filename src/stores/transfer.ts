import { BatonError } from '../core/errors.js';
import { backendFor, kindsWith, type Portable } from './registry.js';

/** Which store `baton store` works on: a URL as --store, BATON_STORE or the config name it, or none for the file store. */
export interface StoreTarget {
  url?: string | undefined;
  root: string;
  project?: string | undefined;
}

/** A store to export from or import into, by the backend the URL names (registry.ts). */
export async function openPortable(target: StoreTarget): Promise<Portable> {
  const backend = backendFor(target.url);
  if (!backend.portable)
    throw new BatonError(
      'usage',
      `baton store export and import work on ${kindsWith('portable')} stores, not ${backend.kind}; give another --store`,
    );
  return backend.portable({ ...target, url: target.url ?? '' });
}

/** `baton store migrate`: creates or upgrades the tables of a store that has them. */
export async function migrateStore(url: string | undefined): Promise<{ from: number; to: number }> {
  const backend = backendFor(url);
  if (!backend.migrate || !url)
    throw new BatonError(
      'usage',
      `baton store migrate needs a store with tables (${kindsWith('migrate')}): pass --store postgres://... or set BATON_STORE (the ${backend.kind} store needs no migration)`,
    );
  return backend.migrate(url);
}
