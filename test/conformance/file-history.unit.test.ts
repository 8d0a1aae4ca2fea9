import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/stores/file/file-store.js';
import { Doc } from '../../src/doc/doc.js';
import { isBatonError } from '../../src/core/errors.js';
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
});
