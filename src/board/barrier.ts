/**
 * A barrier over board items: met when at least `need` of them are done (all, any, at least N).
 * The result is also the partial answer at a timeout: which are done, which are pending and who
 * holds them.
 */
import { BatonError } from '../core/errors.js';
import { checkId, liveClaim, type WorkBoard } from './model.js';

export interface PendingItem {
  id: string;
  status: 'open' | 'blocked' | 'missing';
  /** The agent holding a live claim, and until when. */
  holder?: string;
  expires?: string;
  /** The unfinished items it comes after. */
  waits_for?: string[];
}

export interface BarrierState {
  met: boolean;
  need: number;
  done: string[];
  pending: PendingItem[];
}

export type WaitMode = { all: true } | { any: true } | { atLeast: number };

/** How many of `ids` must be done; a count beyond them could never be met. */
export function needed(ids: string[], mode: WaitMode): number {
  if (ids.length === 0) throw new BatonError('usage', 'work wait needs at least one item id');
  for (const id of ids) checkId(id);
  if ('all' in mode) return ids.length;
  if ('any' in mode) return 1;
  if (!Number.isSafeInteger(mode.atLeast) || mode.atLeast < 1 || mode.atLeast > ids.length)
    throw new BatonError('usage', `--at-least must be from 1 to the number of items given (${ids.length})`);
  return mode.atLeast;
}

export function barrier(board: WorkBoard | undefined, ids: string[], need: number, now: Date): BarrierState {
  const done: string[] = [];
  const pending: PendingItem[] = [];
  for (const id of new Set(ids)) {
    const entry = board?.items[id];
    if (!entry) {
      pending.push({ id, status: 'missing' });
      continue;
    }
    if (entry.status === 'done') {
      done.push(id);
      continue;
    }
    const claim = liveClaim(entry, now);
    const waiting = entry.after.filter((dep) => board?.items[dep]?.status !== 'done');
    pending.push({
      id,
      status: entry.status,
      ...(claim ? { holder: claim.agent, expires: claim.expires } : {}),
      ...(waiting.length > 0 ? { waits_for: waiting } : {}),
    });
  }
  return { met: done.length >= need, need, done, pending };
}
