import { nextEntry } from '../core/history-entry.js';
import type { JsonObject } from '../core/json.js';
import type { Change, Current, DocMeta, EntryDraft } from '../stores/index.js';

/**
 * The change that commits `doc` (null: deletes it) over the current revision: the document's text
 * and its complete history entry (core/history-entry.ts holds the rule), which the store persists as is.
 */
export function buildChange(
  current: Pick<Current, 'rev'>,
  doc: JsonObject | null,
  draft: EntryDraft,
  now: Date,
  meta?: DocMeta,
): Change {
  const { entry, text } = nextEntry(current.rev, doc, draft, now);
  return meta ? { doc, text, entry, meta } : { doc, text, entry };
}
