import { formatDocument, hashText, type JsonObject } from '../core/json.js';
import type { Change, Current, DocMeta, EntryDraft, HistoryEntry, Operation } from '../stores/index.js';

/** A full copy every 100 revisions bounds any replay to 99 patches. */
const SNAPSHOT_EVERY = 100;

/** Operations whose result is not a small step from the previous revision keep a full copy. */
const FULL_COPY: ReadonlySet<Operation['kind']> = new Set(['init', 'revert', 'repair', 'snapshot']);

/**
 * The history rule, in one place for every store: the next revision number, the commit time, the
 * hash of the exact text stored, the deleted flag and when a full copy is kept. Stores persist the
 * result unchanged.
 */
export function buildChange(
  current: Pick<Current, 'rev'>,
  doc: JsonObject | null,
  draft: EntryDraft,
  now: Date,
  meta?: DocMeta,
): Change {
  const text = doc === null ? '' : formatDocument(doc);
  const rev = current.rev + 1;
  const entry: HistoryEntry = { rev, time: now.toISOString(), ...draft, hash: doc === null ? '' : hashText(text) };
  if (doc === null) entry.deleted = true;
  if (rev % SNAPSHOT_EVERY === 1 || FULL_COPY.has(draft.op.kind)) entry.snapshot = doc;
  return meta ? { doc, text, entry, meta } : { doc, text, entry };
}
