/**
 * A document's history entries and the rule that makes them, in one place: the next revision
 * number, the commit time, the hash of the exact text stored, the deleted flag and when a full
 * copy is kept. The engine builds every entry with it (src/doc/commit.ts); stores persist entries
 * unchanged.
 */
import { formatDocument, hashText, type Json, type JsonObject } from './json.js';
import { isoString } from './iso-time.js';
import type { PatchOp } from './patch.js';

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
  /** The full document, on the first revision of every hundred and on full-copy operations, so replay stays short. */
  snapshot?: Json;
}

/** A full copy every 100 revisions bounds any replay to 99 patches. */
const SNAPSHOT_EVERY = 100;

/** Operations whose result is not a small step from the previous revision keep a full copy. */
const FULL_COPY: ReadonlySet<Operation['kind']> = new Set(['init', 'revert', 'repair', 'snapshot']);

/** The entry that commits `doc` (null: deletes it) after revision `rev`, and the text it hashes. */
export function nextEntry(
  rev: number,
  doc: JsonObject | null,
  draft: EntryDraft,
  now: Date,
): { entry: HistoryEntry; text: string } {
  const text = doc === null ? '' : formatDocument(doc);
  const next = rev + 1;
  const entry: HistoryEntry = {
    rev: next,
    time: isoString(now),
    ...draft,
    hash: doc === null ? '' : hashText(text),
  };
  if (doc === null) entry.deleted = true;
  if (next % SNAPSHOT_EVERY === 1 || FULL_COPY.has(draft.op.kind)) entry.snapshot = doc;
  return { entry, text };
}
