/**
 * The dashboard's view of the work board, in process: each item's state in words, the holder and
 * lease end, an expired lease, and the bound on what one page gets from a board of many items.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from '../../src/board/board.js';
import { MemoryStore } from '../../src/stores/index.js';
import { boardSummary, boardView, isBoardValue } from '../../src/ui/board-view.js';
import { tempDir } from '../helpers/fixtures.js';

interface ViewItem {
  id: string;
  state: string;
  holder?: string;
  expires?: string;
  waits_for?: string[];
  paths: string[];
  paths_more?: number;
  after_more?: number;
  done_by?: string;
  reason?: string;
}
interface View {
  total: number;
  pending: number;
  omitted: number;
  counts: Record<string, number>;
  items: ViewItem[];
}

function makeBoard() {
  let now = Date.parse('2026-12-01T12:00:00.000Z');
  const board = new Board({ store: new MemoryStore(), cwd: tempDir(), env: {}, now: () => new Date(now) });
  return {
    board,
    tick: (seconds: number) => void (now += seconds * 1000),
    view: async (limit?: number) => boardView(await board.current(), new Date(now), limit) as unknown as View,
    now: () => new Date(now),
  };
}

describe('the dashboard board view', () => {
  it('names each state: held with holder and lease end, expired, waiting, ready, blocked, done', async () => {
    const { board, tick, view, now } = makeBoard();
    await board.add({ id: 'a', title: 'A' });
    await board.add({ id: 'b', title: 'B', after: ['a'] });
    await board.add({ id: 'c', title: 'C' });
    await board.add({ id: 'd', title: 'D' });
    await board.add({ id: 'e', title: 'E' });
    await board.claim('c', 'w-c', 60);
    await board.block('c', 'w-c', 'needs a key');
    await board.claim('d', 'w-d', 60);
    await board.done('d', 'w-d');
    await board.claim('e', 'w-e', 10);
    await board.claim('a', 'w-a', 600);
    tick(30); // e's lease ran out, a's holds
    const shown = await view();
    const by = Object.fromEntries(shown.items.map((item) => [item.id, item]));
    assert.deepEqual(
      shown.items.map((item) => [item.id, item.state]),
      [
        ['a', 'held'],
        ['e', 'expired'],
        ['c', 'blocked'],
        ['b', 'waiting'],
        ['d', 'done'],
      ],
    );
    assert.equal(by.a!.holder, 'w-a');
    assert.equal(by.a!.expires, '2026-12-01T12:10:00.000Z');
    assert.equal(by.e!.holder, 'w-e');
    assert.deepEqual(by.b!.waits_for, ['a']);
    assert.equal(by.c!.reason, 'needs a key');
    assert.equal(by.d!.done_by, 'w-d');
    assert.deepEqual(shown.counts, { held: 1, expired: 1, blocked: 1, open: 0, waiting: 1, done: 1 });
    assert.equal(shown.pending, 4);
    assert.equal(boardSummary(await board.current(), now()), '1/5 done · 1 held');
  });

  it('gives at most the limit of items, pending first, and cuts long lists with a count', async () => {
    const { board, view, tick } = makeBoard();
    const paths = Array.from({ length: 30 }, (_, n) => `src/p${n}/**`);
    const after: string[] = [];
    for (let n = 0; n < 25; n++) {
      await board.add({ id: `dep-${n}`, title: 'dep' });
      after.push(`dep-${n}`);
    }
    await board.add({ id: 'wide', title: 'wide', after, paths });
    for (let n = 0; n < 25; n++) {
      await board.claim(`dep-${n}`, 'w');
      await board.done(`dep-${n}`, 'w');
      tick(1);
    }
    for (let n = 0; n < 40; n++) await board.add({ id: `more-${n}`, title: 'more' });
    const shown = await view(10);
    assert.equal(shown.total, 66);
    assert.equal(shown.items.length, 10);
    assert.equal(shown.omitted, 56);
    assert.equal(shown.items[0]!.id, 'wide');
    assert.ok(shown.items.every((item) => item.state !== 'done'));
    assert.equal(shown.items[0]!.paths.length, 20);
    assert.equal(shown.items[0]!.paths_more, 10);
    assert.equal(shown.items[0]!.after_more, 5);
    // Done items come last, the newest first.
    const all = await view(1000);
    assert.deepEqual(
      all.items.slice(-2).map((item) => item.id),
      ['dep-1', 'dep-0'],
    );
  });

  it('takes only a board-shaped value for a board', () => {
    const item = { title: 't', after: [], paths: [], fields: {}, status: 'open', added_at: '' };
    assert.equal(isBoardValue({ items: { a: item }, claims: 0 }), true);
    assert.equal(isBoardValue({ items: {}, claims: 0 }), true);
    assert.equal(isBoardValue({ items: { a: item } }), false);
    assert.equal(isBoardValue({ items: { a: { ...item, after: 'x' } }, claims: 0 }), false);
    assert.equal(isBoardValue({ items: { a: { ...item, claim: { expires: 1 } } }, claims: 0 }), false);
    assert.equal(isBoardValue([]), false);
  });
});
