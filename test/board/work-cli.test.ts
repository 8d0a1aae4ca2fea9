/**
 * `baton work` as tools and tests call it: the contract's exit codes and output, a wait woken by
 * another process's done, and the doors around the board (a plain update, set, or a re-created
 * document cannot forge a claim).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, batonAsync } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const BOARD = '.claude/state/board.json';

function project(): { dir: string; work(...args: string[]): ReturnType<typeof baton>; cleanup(): void } {
  const { dir, cleanup } = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n' });
  return { dir, cleanup, work: (...args) => baton(['work', ...args], { cwd: dir }) };
}

describe('baton work', () => {
  it('add, claim prints the id (exit 0), a lost claim exits 1, done needs a live claim', (t) => {
    const { dir, work, cleanup } = project();
    t.after(cleanup);
    assert.equal(work('add', 'a', '--title', 'first', '--paths', 'src/a/**', '--field', 'owner=me').code, 0);
    assert.equal(work('add', 'b', '--title', 'second', '--after', 'a').code, 0);
    const claimed = work('claim', '--as', 'w1');
    assert.deepEqual([claimed.code, claimed.stdout], [0, 'a\n']);
    const lost = work('claim', 'a', '--as', 'w2');
    assert.equal(lost.code, 1);
    assert.match(lost.stderr, /nothing claimed: item a is held by w1/);
    const nothing = work('claim', '--as', 'w2');
    assert.equal(nothing.code, 1, 'b waits for a');
    const before = readFileSync(join(dir, BOARD), 'utf8');
    const refused = work('done', 'a', '--as', 'w2');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /w2 holds no claim on item a \(it is held by w1\)/);
    assert.equal(readFileSync(join(dir, BOARD), 'utf8'), before, 'a refused done writes nothing');
    assert.equal(work('done', 'a', '--as', 'w1').code, 0);
    assert.equal(work('claim', '--as', 'w2').stdout, 'b\n');
    const shown = JSON.parse(work('show', 'a', '--json').stdout) as Record<string, unknown>;
    assert.equal(shown.status, 'done');
    assert.deepEqual(shown.fields, { owner: 'me' });
    assert.match(work('show').stdout, /^b\theld by w2 until /m);
  });

  it('bad input exits 2 naming the fix', (t) => {
    const { work, cleanup } = project();
    t.after(cleanup);
    assert.equal(work('add', 'a', '--title', 'A').code, 0);
    for (const args of [
      ['add', 'b'],
      ['claim', 'a'],
      ['claim', 'a', '--as', 'w', '--lease', 'soon'],
      ['wait', 'a', '--timeout', '1'],
      ['wait', 'a', '--all', '--any', '--timeout', '1'],
      ['wait', 'a', '--all'],
      ['frobnicate'],
    ]) {
      const result = work(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /baton work/);
    }
  });

  it('wait exits 1 at the timeout with the partial result, and 0 when another process finishes the items', async (t) => {
    const { dir, work, cleanup } = project();
    t.after(cleanup);
    for (const id of ['a', 'b', 'c']) work('add', id, '--title', id);
    work('claim', 'a', '--as', 'w1');
    work('claim', 'b', '--as', 'w2');
    const partial = work('wait', 'a', 'b', 'c', '--at-least', '2', '--timeout', '0.2', '--json');
    assert.equal(partial.code, 1);
    const state = JSON.parse(partial.stdout) as {
      met: boolean;
      done: string[];
      pending: { id: string; holder?: string }[];
    };
    assert.equal(state.met, false);
    assert.deepEqual(state.done, []);
    assert.deepEqual(
      state.pending.map((p) => [p.id, p.holder ?? null]),
      [
        ['a', 'w1'],
        ['b', 'w2'],
        ['c', null],
      ],
    );
    // A day's timeout: only the done commits can end this wait.
    const waiting = batonAsync(['work', 'wait', 'a', 'b', '--all', '--timeout', '86400', '--json'], { cwd: dir });
    assert.equal(work('done', 'a', '--as', 'w1').code, 0);
    assert.equal(work('done', 'b', '--as', 'w2').code, 0);
    const met = await waiting;
    assert.equal(met.code, 0, met.stderr);
    assert.deepEqual((JSON.parse(met.stdout) as { done: string[] }).done, ['a', 'b']);
  });

  it('a plain update, set or a re-created document cannot forge a claim', (t) => {
    const { dir, work, cleanup } = project();
    t.after(cleanup);
    work('add', 'a', '--title', 'A');
    work('claim', 'a', '--as', 'w1');
    const before = readFileSync(join(dir, BOARD), 'utf8');
    const forged = baton(['update', BOARD, '.items.a.claim.agent = "mallory"'], { cwd: dir });
    assert.equal(forged.code, 5, forged.stderr);
    assert.match(forged.stderr, /changes only through 'baton work'/);
    assert.equal(baton(['set', BOARD, 'items.a.status', 'done'], { cwd: dir }).code, 5);
    assert.equal(readFileSync(join(dir, BOARD), 'utf8'), before);
    // Cleared and made again under a laxer schema, the document is no board for baton work.
    assert.equal(baton(['clear', BOARD], { cwd: dir }).code, 0);
    const forgedItem = {
      title: 'A',
      after: [],
      paths: [],
      fields: {},
      status: 'open',
      added_at: '2026-01-01T00:00:00Z',
    };
    const lax = baton(
      [
        'init',
        BOARD,
        '--schema',
        'any',
        '--argjson',
        'items',
        JSON.stringify({ a: forgedItem }),
        '--argjson',
        'claims',
        '0',
      ],
      { cwd: dir },
    );
    assert.equal(lax.code, 0, lax.stderr);
    const claim = work('claim', '--as', 'w2');
    assert.equal(claim.code, 5, claim.stderr);
    assert.match(claim.stderr, /works only on documents whose schema names it/);
  });
});
