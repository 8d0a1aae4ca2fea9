import { BatonError } from '../core/errors.js';
import type { HistoryEntry } from '../core/history-entry.js';
import type { Json, JsonObject } from '../core/json.js';

export type { EntryDraft, HistoryEntry, Operation } from '../core/history-entry.js';

/**
 * What every backend provides. The engine (src/doc/) does all the deciding, including every field
 * of a history entry; a store only keeps documents, their metadata and their history, and runs a
 * read-modify-write exclusively against every other writer of the same key (other processes, other
 * machines).
 *
 * Keys are relative paths such as `.claude/state/current-task.json`.
 *
 * The commit contract: a `Change` is persisted exactly as given, the document as `text`, the entry
 * as the next history line, with nothing added or recomputed. `change.entry.rev` must be the
 * current revision + 1; a store refuses any other (`lock_lost`, nothing written), which is how a
 * store that decided without holding the key detects that another writer committed first.
 */
export interface Store {
  readonly kind: string;
  /** Lock-free read of the committed document. */
  read(key: string): Promise<ReadResult>;
  /**
   * Runs `fn` exclusively for `key` with the committed state, then commits what it returns.
   * Throws `lock_timeout` when exclusivity cannot be had within the store's wait budget. `fn` may
   * run more than once (a store may decide a no-op without locking first), so it must only decide.
   * After a commit the store calls `decision.committed`, still holding the key where it can (so
   * local side effects land in commit order); its error is reported, the commit stands.
   */
  transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T>;
  /**
   * The documents the store holds now (a cleared one is left out, its history stays), sorted by
   * key, each with when it last changed: what the dashboard lists, on every backend alike.
   */
  list(): Promise<Listing[]>;
  /** Newest first. */
  history(key: string, options?: { limit?: number }): Promise<HistoryEntry[]>;
  /** The document as it was right after revision `rev` (null when that revision deleted it). */
  revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }>;
  /** Calls `listener` after each commit to `key` (from any writer); returns an unsubscribe. */
  watch(key: string, listener: () => void): () => void;
  /**
   * A shared store's committed revision of each key that has a row, and that row's identity, in one
   * round trip: what a resident server checks its kept copies against before a decision
   * (serve/shared-state.ts).
   */
  revisions?(keys: string[]): Promise<Map<string, Committed>>;
  /**
   * The store's own checks of what it holds (`baton doctor`), each failing row with the repair it
   * proposes; undefined when the store has none. The doctor adds the engine's checks (schema,
   * mirrors) for each document and reports.
   */
  doctor?(): Promise<DocumentCheck[] | undefined>;
  close(): Promise<void>;
}

/** One document of a store's listing. */
/**
 * A key's committed revision, and the row it is in. Revisions start again at 1 in a table dropped
 * and made again (a restore, an operator): revision 3 of the new document is not revision 3 of the
 * old, and `row` tells them apart (PostgreSQL: the table's OID and the row version's transaction).
 */
export interface Committed {
  readonly rev: number;
  readonly row: string;
}

export interface Listing {
  key: string;
  /** When it last changed (ISO 8601): its last commit, or on the file store the file's mtime. */
  time: string;
  /**
   * Set on a place the store could not look into (the file store: a folder this user may not list,
   * its key the folder's with a trailing `/`): the cause and the fix. The documents in it are not
   * listed, and the listing must not read as complete.
   */
  error?: string;
}

/** One document as the store's doctor found it. */
export interface DocumentCheck {
  key: string;
  rows: Finding[];
  /** The document's metadata when it could be read: the doctor then checks the document against its schema. */
  meta?: DocMeta;
}

/** One row of the doctor's report. */
export interface Finding {
  ok: boolean;
  /** Worth fixing but not a fault: printed as `warn`, and the report still passes. */
  warn?: boolean;
  check: string;
  fix: string;
  /** What `baton doctor --repair` does for a failing row; returns the line it reports. */
  repair?: (now: Date) => Promise<string | undefined>;
}

export type ReadResult = (
  | { state: 'missing' }
  | { state: 'ok'; doc: Json; text: string; bom?: true }
  | { state: 'corrupt'; text: string; error: string }
) & {
  /**
   * The document's metadata, from a store shared between machines: commits made elsewhere leave
   * this machine's mirror files behind, so the engine brings them up to date on a read.
   */
  meta?: DocMeta;
};

export interface DocMeta {
  /** Built-in schema name or schema file path. */
  schema?: string;
}

export type Current = ReadResult & { rev: number; meta: DocMeta };

export interface Decision<T> {
  result: T;
  /** Omit to commit nothing (a read under the lock, or a no-op). */
  commit?: Change;
  /** Runs right after `commit` is persisted (the engine writes mirror files here). */
  committed?: () => void;
}

/** Built by the engine (src/doc/commit.ts); a store persists it as is. */
export interface Change {
  /** The new document, or null to delete it. */
  doc: JsonObject | null;
  /** The document as it is stored: `doc` formatted, '' when deleted; `entry.hash` is its hash. */
  text: string;
  /** The complete history entry; its `rev` is the current revision + 1. */
  entry: HistoryEntry;
  /** Replaces the document's metadata; omitted keeps it. */
  meta?: DocMeta;
}

/**
 * The commit contract's guard, shared by every store: a change must carry the revision right after
 * the committed one. Anything else means another writer committed since the change was decided.
 */
export function checkNextRevision(change: Change, rev: number, key: string): void {
  if (change.entry.rev !== rev + 1)
    throw new BatonError(
      'lock_lost',
      `${key} is at revision ${rev}, but this commit was decided for revision ${change.entry.rev - 1} (another writer came first); nothing was written; retry`,
    );
}
