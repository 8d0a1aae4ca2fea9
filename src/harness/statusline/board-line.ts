/**
 * Line 3 of the status line: the work board while items are open: how many are done, who holds
 * what, how many wait or are blocked. Omitted when there is no board or everything is done.
 */
import { isObject, type Json } from '../../core/json.js';
import { barrier } from '../../board/barrier.js';
import type { WorkBoard } from '../../board/model.js';
import { clean, painter, SEP } from './task-line.js';

/** Holders past this many are counted, not named: the line stays one row. */
const MAX_HOLDERS = 4;

export function renderBoardLine(doc: Json | undefined, color = true, now = new Date()): string | undefined {
  if (!looksLikeBoard(doc)) return undefined;
  const ids = Object.keys(doc.items);
  const state = barrier(doc, ids, ids.length, now);
  if (ids.length === 0 || state.met) return undefined;
  const paint = painter(color);
  const parts = [`${paint('dim', 'board')} ${state.done.length}/${ids.length} done`];
  const held = state.pending.filter((item) => item.holder !== undefined);
  if (held.length > 0) {
    const named = held.slice(0, MAX_HOLDERS).map((item) => `${clean(item.holder)}: ${clean(item.id)}`);
    const more = held.length > MAX_HOLDERS ? ` +${held.length - MAX_HOLDERS}` : '';
    parts.push(`${paint('cyan', '↻')} ${named.join(', ')}${more}`);
  }
  const open = state.pending.filter((item) => item.holder === undefined && item.status === 'open').length;
  if (open > 0) parts.push(`${open} open`);
  const blocked = state.pending.filter((item) => item.status === 'blocked').length;
  if (blocked > 0) parts.push(paint('red', `${blocked} blocked`));
  return parts.join(SEP);
}

/**
 * The fields this line reads, checked by hand: the compiled validators would triple the status
 * line's bundle (26 -> 67 KB), which the host starts several times a second. Every write of the
 * board was validated already; this only keeps a hand-edited file from throwing.
 */
function looksLikeBoard(doc: Json | undefined): doc is WorkBoard & Json {
  return (
    isObject(doc) &&
    isObject(doc.items) &&
    Object.values(doc.items).every(
      (item) =>
        isObject(item) &&
        typeof item.status === 'string' &&
        Array.isArray(item.after) &&
        (item.claim === undefined || (isObject(item.claim) && typeof item.claim.expires === 'string')),
    )
  );
}
