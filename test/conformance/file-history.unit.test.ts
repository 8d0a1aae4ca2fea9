import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/stores/file/file-store.js';
import { Doc } from '../../src/doc/doc.js';
import { isBatonError } from '../../src/core/errors.js';
import { buildChange } from '../../src/doc/commit.js';
import { tempTree } from '../helpers/fixtures.js';

describe('file store history', () => {
  it('stays bounded: old segments are dropped, what is kept still replays, and writes read only the tail', async (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const store = new FileStore(tree.dir, { historyKeep: 1000 });
    const doc = new Doc(store, 'h.json', tree.dir);
    await doc.init({ i: 0 });
    for (let i = 1; i < 2600; i++) await doc.update((body) => ({ ...body, i }));
    const segments = readdirSync(join(tree.dir, '.baton', 'h.json.history'));
    assert.deepEqual(segments, ['000000001001.jsonl', '000000002001.jsonl']);
    assert.deepEqual((await doc.show(1001)).doc, { i: 1000 });
    assert.deepEqual((await doc.show(2600)).doc, await doc.read());
    await assert.rejects(doc.show(1), (error: unknown) => isBatonError(error, 'not_found'));
    assert.equal((await doc.history({ limit: 5 }))[0]?.rev, 2600);
  });

  it('fences a commit on the exact text read: a file rewritten (whitespace only), removed or created behind the lock is left as it is', async (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const store = new FileStore(tree.dir);
    const file = (key: string) => join(tree.dir, key);
    await new Doc(store, 'a.json', tree.dir).init({ a: 1 });
    writeFileSync(file('c.json'), 'not json\n');
    const behind: [string, () => void, string | undefined][] = [
      ['a.json', () => writeFileSync(file('a.json'), '{"a":1}'), '{"a":1}'],
      ['a.json', () => unlinkSync(file('a.json')), undefined],
      ['b.json', () => writeFileSync(file('b.json'), '{"b":2}\n'), '{"b":2}\n'],
      ['c.json', () => writeFileSync(file('c.json'), 'not json either\n'), 'not json either\n'],
    ];
    for (const [key, outside, left] of behind) {
      let rev = -1;
      await assert.rejects(
        store.transact(key, (current) => {
          rev = current.rev;
          outside();
          return {
            result: undefined,
            commit: buildChange(current, { a: 9 }, { op: { kind: 'update' }, patch: [] }, new Date()),
          };
        }),
        (error: unknown) => isBatonError(error, 'lock_lost'),
        key,
      );
      assert.equal(existsSync(file(key)) ? readFileSync(file(key), 'utf8') : undefined, left, key);
      // No line past the revision the decision saw (an outside edit read first is recorded as one).
      assert.equal((await store.history(key, { limit: 1 }))[0]?.rev ?? 0, rev, key);
    }
  });
});
