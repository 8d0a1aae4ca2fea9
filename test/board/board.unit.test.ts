/**
 * The board's rules over the engine, in process (a MemoryStore, a clock the test moves): the ready
 * queue, claims and leases, fencing after a takeover, barriers, and the parallel set's paths.
 * Races between real processes on the file store and PostgreSQL are in race.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from '../../src/board/board.js';
import { globsOverlap } from '../../src/board/globs.js';
import { isBatonError } from '../../src/core/errors.js';
import { MemoryStore } from '../../src/stores/index.js';
import { tempDir } from '../helpers/fixtures.js';

function makeBoard(): { board: Board; tick(seconds: number): void; store: MemoryStore } {
  let now = Date.parse('2026-12-01T12:00:00.000Z');
  const store = new MemoryStore();
  return {
    board: new Board({ store, cwd: tempDir(), env: {}, now: () => new Date(now) }),
    tick: (seconds) => void (now += seconds * 1000),
    store,
  };
}

const code = (expected: string) => (error: unknown) => isBatonError(error) && error.code === expected;

describe('work board', () => {
  it('the ready queue holds open items whose dependencies are done, in the order added', async () => {
    const { board } = makeBoard();
    await board.add({ id: 'a', title: 'A' });
    await board.add({ id: 'b', title: 'B', after: ['a'] });
    await board.add({ id: 'c', title: 'C' });
    assert.deepEqual(await board.ready(), ['a', 'c']);
    assert.equal((await board.claim(undefined, 'w1')).claimed, 'a');
    assert.deepEqual(await board.ready(), ['c']);
    await board.done('a', 'w1');
    assert.deepEqual(await board.ready(), ['b', 'c']);
  });

  it('a second claimant loses while the lease holds, and takes over once it expired; the first is fenced', async () => {
    const { board, tick } = makeBoard();
    await board.add({ id: 'x', title: 'X' });
    const first = await board.claim('x', 'w1', 10);
    assert.equal(first.claimed, 'x');
    const lost = await board.claim('x', 'w2', 10);
    assert.equal(lost.claimed, undefined);
    assert.match(lost.claimed === undefined ? lost.why : '', /held by w1/);
    tick(9);
    await board.heartbeat('x', 'w1');
    tick(9);
    assert.equal((await board.claim('x', 'w2')).claimed, undefined, 'the heartbeat renewed the lease');
    tick(11);
    const taken = await board.claim('x', 'w2', 10);
    assert.equal(taken.claimed, 'x');
    assert.equal(taken.claimed && taken.claim.token, 2);
    await assert.rejects(board.done('x', 'w1'), code('conflict'));
    await assert.rejects(board.heartbeat('x', 'w1'), code('conflict'));
    await board.done('x', 'w2');
    const item = (await board.current()).items.x!;
    assert.equal(item.status, 'done');
    assert.equal(item.done_by, 'w2');
  });

  it('an expired lease nobody took over still fences its holder', async () => {
    const { board, tick } = makeBoard();
    await board.add({ id: 'x', title: 'X' });
    await board.claim('x', 'w1', 5);
    tick(6);
    await assert.rejects(board.done('x', 'w1'), /lease on item x expired/);
    assert.equal((await board.current()).items.x!.status, 'open');
  });

  it('a token names one claim: the same agent name on a later claim does not inherit the old one', async () => {
    const { board, tick } = makeBoard();
    await board.add({ id: 'x', title: 'X' });
    await board.claim('x', 'w1', 5);
    tick(6);
    const again = await board.claim('x', 'w1', 5);
    assert.equal(again.claimed && again.claim.token, 2);
    await assert.rejects(board.done('x', 'w1', 1), code('conflict'));
    await board.done('x', 'w1', 2);
  });

  it('block and release end the claim; reopen opens a blocked item again; an ended agent loses its claims', async () => {
    const { board } = makeBoard();
    await board.add({ id: 'a', title: 'A' });
    await board.add({ id: 'b', title: 'B' });
    await board.claim('a', 'w1');
    await board.block('a', 'w1', 'needs a key');
    assert.deepEqual(await board.ready(), ['b']);
    await board.reopen('a');
    assert.deepEqual(await board.ready(), ['a', 'b']);
    await board.claim('a', 'w1');
    await board.release('a', 'w1');
    await board.claim('a', 'w2');
    await board.claim('b', 'w2');
    assert.deepEqual(await board.releaseEnded('SubagentStop', 's1', 'w2'), ['a', 'b']);
    assert.deepEqual(await board.ready(), ['a', 'b']);
  });

  it('refuses bad input with the fix named, and writes nothing', async () => {
    const { board, store } = makeBoard();
    await board.add({ id: 'a', title: 'A' });
    const before = await store.read('.claude/state/board.json');
    await assert.rejects(board.add({ id: 'a', title: 'again' }), code('exists'));
    await assert.rejects(board.add({ id: 'b', title: 'B', after: ['nope'] }), /add nope first/);
    await assert.rejects(board.add({ id: '../x', title: 'B' }), code('usage'));
    await assert.rejects(board.claim('a', 'w', 0), code('usage'));
    await assert.rejects(board.claim('a', 'w', 86_401), code('usage'));
    await assert.rejects(board.claim('a', ''), code('usage'));
    await assert.rejects(board.done('zz', 'w'), code('not_found'));
    assert.deepEqual(await store.read('.claude/state/board.json'), before);
  });

  it('the board needs an item before anything else', async () => {
    const { board } = makeBoard();
    await assert.rejects(board.claim(undefined, 'w'), /baton work add/);
    assert.deepEqual(await board.ready(), []);
    assert.deepEqual(await board.releaseEnded('SessionEnd', 's1'), []);
  });

  it('two items that may run at once may not reserve one path; one after the other may', async () => {
    const { board } = makeBoard();
    await board.add({ id: 'a', title: 'A', paths: ['src/a/**'] });
    await assert.rejects(
      board.add({ id: 'b', title: 'B', paths: ['src/a/x.ts'] }),
      /src\/a\/x.ts overlaps src\/a\/\*\* of item a/,
    );
    await board.add({ id: 'b', title: 'B', paths: ['src/a/x.ts'], after: ['a'] });
    await board.add({ id: 'c', title: 'C', paths: ['docs/*.md'] });
    // c runs beside a and b: a later item after b alone still runs beside c.
    await assert.rejects(board.add({ id: 'd', title: 'D', paths: ['docs/README.md'], after: ['b'] }), /item c/);
  });

  it('a barrier reports done, pending and holders, for all, any and at least N', async () => {
    const { board } = makeBoard();
    for (const id of ['a', 'b', 'c']) await board.add({ id, title: id });
    await board.claim('a', 'w1');
    await board.claim('b', 'w2');
    await board.done('a', 'w1');
    const all = await board.barrier(['a', 'b', 'c'], { all: true });
    assert.equal(all.met, false);
    assert.deepEqual(all.done, ['a']);
    assert.deepEqual(
      all.pending.map((p) => [p.id, p.holder]),
      [
        ['b', 'w2'],
        ['c', undefined],
      ],
    );
    assert.equal((await board.barrier(['a', 'b', 'c'], { any: true })).met, true);
    assert.equal((await board.barrier(['a', 'b', 'c'], { atLeast: 2 })).met, false);
    await assert.rejects(board.barrier(['a'], { atLeast: 2 }), code('usage'));
  });

  it('wait wakes on the commit that meets the barrier, and at the timeout gives the partial result', async () => {
    const { board } = makeBoard();
    for (const id of ['a', 'b']) await board.add({ id, title: id });
    await board.claim('a', 'w1');
    const timedOut = await board.wait(['a', 'b'], { all: true }, 0);
    assert.equal(timedOut.met, false);
    assert.equal(timedOut.pending[0]?.holder, 'w1');
    const waiting = board.wait(['a', 'b'], { any: true }, 3600);
    await board.done('a', 'w1');
    const met = await waiting;
    assert.deepEqual([met.met, met.done], [true, ['a']]);
    await assert.rejects(board.wait(['a', 'zz'], { any: true }, 1), code('not_found'));
  });
});

describe('path globs overlap', () => {
  const cases: [string, string, boolean][] = [
    ['src/a.ts', 'src/a.ts', true],
    ['src/a.ts', 'src/b.ts', false],
    ['src/*.ts', 'src/*.js', false],
    ['src/*', 'src/a/b.ts', true],
    ['src/a/**', 'src/*.js', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['src/[ab].ts', 'src/c.ts', false],
    ['src/[ab].ts', 'src/b.ts', true],
    ['*', 'anything', true],
    ['docs/*.md', 'src/*.md', false],
  ];
  for (const [a, b, overlap] of cases)
    it(`${a} and ${b}: ${overlap ? 'overlap' : 'apart'}`, () => {
      assert.equal(globsOverlap(a, b), overlap);
      assert.equal(globsOverlap(b, a), overlap);
    });
});
