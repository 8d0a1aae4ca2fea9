/**
 * The work board as the dashboard shows it: each item's state in words (held, expired, waiting,
 * open, blocked, done), its holder and lease end, what it waits for, its paths. Bounded: a board
 * may hold any number of items, so the page gets the pending ones first and at most
 * `BOARD_ITEMS_SHOWN` in all, each list cut to `LIST_SHOWN`, with counts of what was left out.
 */
import { isObject, type Json, type JsonObject } from '../core/json.js';
import type { Item, WorkBoard } from '../board/model.js';

export const BOARD_ITEMS_SHOWN = 200;
const LIST_SHOWN = 20;

/** held: a live claim; expired: a claim whose lease ended (anyone may take it over). */
export type ItemState = 'held' | 'expired' | 'waiting' | 'open' | 'blocked' | 'done';

/** Pending items first, the ones an orchestrator watches most at the top; done ones last. */
const ORDER: ItemState[] = ['held', 'expired', 'blocked', 'open', 'waiting', 'done'];

/** The shape the board's schema guarantees, checked before anything is read from it. */
export function isBoardValue(value: Json | undefined): value is WorkBoard & JsonObject {
  return (
    isObject(value) &&
    typeof value.claims === 'number' &&
    isObject(value.items) &&
    Object.values(value.items).every(
      (item) =>
        isObject(item) &&
        typeof item.title === 'string' &&
        typeof item.status === 'string' &&
        Array.isArray(item.after) &&
        Array.isArray(item.paths) &&
        (item.claim === undefined || (isObject(item.claim) && typeof item.claim.expires === 'string')),
    )
  );
}

export function itemState(board: WorkBoard, item: Item, now: Date): ItemState {
  if (item.status === 'done') return 'done';
  if (item.status === 'blocked') return 'blocked';
  if (item.claim) return Date.parse(item.claim.expires) > now.getTime() ? 'held' : 'expired';
  return item.after.some((dep) => board.items[dep]?.status !== 'done') ? 'waiting' : 'open';
}

/** `{done}/{total} done · N held` for the document list. */
export function boardSummary(board: WorkBoard, now: Date): string {
  const counts = countStates(board, now);
  const total = Object.keys(board.items).length;
  const held = counts.held ? ` · ${counts.held} held` : '';
  return `${counts.done}/${total} done${held}`;
}

function countStates(board: WorkBoard, now: Date): Record<ItemState, number> {
  const counts = Object.fromEntries(ORDER.map((state) => [state, 0])) as Record<ItemState, number>;
  for (const item of Object.values(board.items)) counts[itemState(board, item, now)] += 1;
  return counts;
}

function cut<T>(list: T[]): { shown: T[]; more: number } {
  return { shown: list.slice(0, LIST_SHOWN), more: Math.max(0, list.length - LIST_SHOWN) };
}

export function boardView(board: WorkBoard, now: Date, limit = BOARD_ITEMS_SHOWN): JsonObject {
  const entries = Object.entries(board.items).map(([id, item], order) => ({
    id,
    item,
    order,
    state: itemState(board, item, now),
  }));
  // Done items newest first; the others in the order they were added, as the ready queue is.
  entries.sort(
    (a, b) =>
      ORDER.indexOf(a.state) - ORDER.indexOf(b.state) ||
      (a.state === 'done' ? (b.item.done_at ?? '').localeCompare(a.item.done_at ?? '') : 0) ||
      a.order - b.order,
  );
  const items = entries.slice(0, limit).map(({ id, item, state }) => {
    const after = cut(item.after);
    const waits = cut(item.after.filter((dep) => board.items[dep]?.status !== 'done'));
    const paths = cut(item.paths);
    return {
      id,
      title: item.title,
      state,
      after: after.shown,
      ...(after.more ? { after_more: after.more } : {}),
      ...(state === 'waiting' ? { waits_for: waits.shown, ...(waits.more ? { waits_more: waits.more } : {}) } : {}),
      paths: paths.shown,
      ...(paths.more ? { paths_more: paths.more } : {}),
      ...(item.claim
        ? { holder: item.claim.agent, since: item.claim.since, expires: item.claim.expires, token: item.claim.token }
        : {}),
      ...(item.reason !== undefined ? { reason: item.reason } : {}),
      ...(item.done_by !== undefined ? { done_by: item.done_by, done_at: item.done_at ?? null } : {}),
    };
  });
  const counts = countStates(board, now);
  return {
    now: now.toISOString(),
    total: entries.length,
    pending: entries.length - counts.done,
    counts,
    items,
    omitted: entries.length - items.length,
  };
}
