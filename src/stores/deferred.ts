import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import type { Committed, Current, Decision, DocumentCheck, HistoryEntry, Listing, ReadResult, Store } from './store.js';

/**
 * A store loaded on first use. Opening a document stays synchronous and free: a backend that
 * needs a module (`pg`) or a connection pays for it only when the document is read or written,
 * so a path that opens a document and returns early never loads or connects anything.
 */
export class DeferredStore implements Store {
  private loading?: Promise<Store>;

  constructor(
    readonly kind: string,
    private readonly load: () => Promise<Store>,
  ) {}

  private store(): Promise<Store> {
    this.loading ??= this.load();
    return this.loading;
  }

  async read(key: string): Promise<ReadResult> {
    return (await this.store()).read(key);
  }

  async transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T> {
    return (await this.store()).transact(key, fn);
  }

  async list(): Promise<Listing[]> {
    return (await this.store()).list();
  }

  async history(key: string, options?: { limit?: number }): Promise<HistoryEntry[]> {
    return (await this.store()).history(key, options);
  }

  async revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }> {
    return (await this.store()).revision(key, rev);
  }

  async revisions(keys: string[]): Promise<Map<string, Committed>> {
    const store = await this.store();
    if (!store.revisions) throw new BatonError('internal', `a ${this.kind} store has no revisions to check`);
    return store.revisions(keys);
  }

  /** Subscribes once the store is loaded; a store that fails to load reports it on the next read or write. */
  watch(key: string, listener: () => void): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    this.store().then(
      (store) => {
        if (!stopped) stop = store.watch(key, listener);
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }

  async doctor(): Promise<DocumentCheck[] | undefined> {
    return (await this.store()).doctor?.();
  }

  async close(): Promise<void> {
    if (this.loading) await (await this.loading.catch(() => undefined))?.close();
  }
}
