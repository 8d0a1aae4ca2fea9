import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import { applyPatch } from '../core/patch.js';
import type { HistoryEntry } from './store.js';

/** Replays from the newest snapshot at or before `rev` in its segment. */
export function replay(entries: HistoryEntry[], rev: number, key: string): { entry: HistoryEntry; doc: Json | null } {
  const target = entries.findIndex((entry) => entry.rev === rev);
  if (target < 0)
    throw new BatonError(
      'not_found',
      `${key} has no revision ${rev} in its history; run 'baton history ${key}' to list revisions`,
    );
  let start = target;
  while (start > 0 && (entries[start] as HistoryEntry).snapshot === undefined) start--;
  let doc: Json | undefined;
  for (const entry of entries.slice(start, target + 1)) {
    doc =
      entry.snapshot !== undefined
        ? structuredClone(entry.snapshot)
        : entry.deleted
          ? undefined
          : applyPatch(doc, entry.patch);
  }
  return { entry: entries[target] as HistoryEntry, doc: doc ?? null };
}
