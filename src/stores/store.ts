import type { Json, JsonObject } from '../core/json.js';
import type { PatchOp } from '../core/patch.js';

/**
 * What every backend provides. The engine (src/doc/) does all the deciding; a store only keeps
 * documents, their metadata and their history, and runs a read-modify-write exclusively against
 * every other writer of the same key (other processes, other machines).
 *
 * Keys are relative paths such as `.claude/state/current-task.json`.
 */
export interface Store {
  readonly kind: string;
  /** Lock-free read of the committed document. */
  read(key: string): Promise<ReadResult>;
  /**
   * Runs `fn` exclusively for `key` with the committed state, then commits what it returns.
   * Throws `lock_timeout` when exclusivity cannot be had within the store's wait budget. `fn` may
   * run more than once (a store may decide a no-op without locking first), so it must only decide.
   */
  transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T>;
  /** Newest first. */
  history(key: string, options?: { limit?: number }): Promise<HistoryEntry[]>;
  /** The document as it was right after revision `rev` (null when that revision deleted it). */
  revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }>;
  /** Calls `listener` after each commit to `key` (from any writer); returns an unsubscribe. */
  watch(key: string, listener: () => void): () => void;
  close(): Promise<void>;
}

export type ReadResult =
  | { state: 'missing' }
  | { state: 'ok'; doc: Json; text: string; bom?: true }
  | { state: 'corrupt'; text: string; error: string };

export interface DocMeta {
  /** Built-in schema name or schema file path. */
  schema?: string;
}

export type Current = ReadResult & { rev: number; meta: DocMeta };

export interface Decision<T> {
  result: T;
  /** Omit to commit nothing (a read under the lock, or a no-op). */
  commit?: Change;
}

export interface Change {
  /** The new document, or null to delete it. */
  doc: JsonObject | null;
  entry: EntryDraft;
  meta?: DocMeta;
  /** Small derived files written after the commit (the JSON stays authoritative). */
  mirrors?: { file: string; content: string }[];
}

export interface Operation {
  kind: 'init' | 'update' | 'set' | 'append' | 'consume' | 'clear' | 'revert' | 'external' | 'repair' | 'snapshot';
  /** Why a snapshot was taken (e.g. `pre-compact`). */
  note?: string;
  /** The schema an init chose, so metadata can be rebuilt from history. */
  schema?: string;
  expr?: string;
  path?: string;
  rev?: number;
}

export interface EntryDraft {
  writer?: string;
  op: Operation;
  patch: PatchOp[];
}

export interface HistoryEntry extends EntryDraft {
  rev: number;
  time: string;
  /** Hash of the committed document text ('' when deleted). */
  hash: string;
  deleted?: true;
  /** The full document, every SNAPSHOT_EVERY revisions, so replay stays short. */
  snapshot?: Json;
}

/** A full copy every 100 revisions bounds any replay to 99 patches. */
export const SNAPSHOT_EVERY = 100;
