import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import {
  checkNextRevision,
  type Current,
  type Decision,
  type DocMeta,
  type HistoryEntry,
  type Listing,
  type ReadResult,
  type Store,
} from './store.js';
import { replay } from './replay.js';

/**
 * The reference store: everything in memory, exclusive by an in-process queue. It defines what
 * the conformance suite expects of every backend, without any I/O to get wrong.
 */
export class MemoryStore implements Store {
  readonly kind = 'memory';
  private readonly docs = new Map<string, { text: string; meta: DocMeta; entries: HistoryEntry[] }>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly listeners = new Map<string, Set<() => void>>();

  async read(key: string): Promise<ReadResult> {
    const text = this.docs.get(key)?.text;
    if (text === undefined || text === '') return { state: 'missing' };
    return { state: 'ok', doc: JSON.parse(text) as Json, text };
  }

  async transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T> {
    const run = (this.queues.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const slot = this.docs.get(key) ?? { text: '', meta: {}, entries: [] };
        const read = await this.read(key);
        const rev = slot.entries.at(-1)?.rev ?? 0;
        const decision = await fn({ ...read, rev, meta: structuredClone(slot.meta) });
        const change = decision.commit;
        if (change) {
          checkNextRevision(change, rev, key);
          const entry = structuredClone(change.entry);
          this.docs.set(key, { text: change.text, meta: change.meta ?? slot.meta, entries: [...slot.entries, entry] });
          decision.committed?.();
          for (const listener of this.listeners.get(key) ?? []) queueMicrotask(listener);
        }
        return decision.result;
      });
    this.queues.set(key, run);
    return run;
  }

  async list(): Promise<Listing[]> {
    return [...this.docs]
      .filter(([, slot]) => slot.text !== '')
      .map(([key, slot]) => ({ key, time: slot.entries.at(-1)?.time ?? new Date(0).toISOString() }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async history(key: string, options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    return (this.docs.get(key)?.entries ?? []).slice(-(options.limit ?? 20)).reverse();
  }

  async revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }> {
    const entries = this.docs.get(key)?.entries ?? [];
    if (!entries.some((entry) => entry.rev === rev)) {
      throw new BatonError(
        'not_found',
        `${key} has no revision ${rev} in its history; run 'baton history ${key}' to list revisions`,
      );
    }
    return replay(entries, rev, key);
  }

  watch(key: string, listener: () => void): () => void {
    const set = this.listeners.get(key) ?? new Set();
    set.add(listener);
    this.listeners.set(key, set);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {}
}
