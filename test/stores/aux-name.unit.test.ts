/**
 * A document's sidecar names (lock, metadata, history) keep its name while its UTF-8 is at most
 * the readable bound, else a short name (src/stores/file/layout.ts). The bound is in bytes; the
 * test skips counting them for names of at most a third of it in UTF-16 units. Names of 1-, 2-, 3-
 * and 4-byte characters, and lone surrogates (3 bytes each as Node encodes them), at and around
 * the bound: the names must be the ones the byte count gives, whichever way they are found.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auxName } from '../../src/stores/file/layout.js';
import { NAME_MAX, shortName, tempName } from '../../src/fs/file-names.js';

const READABLE_MAX = NAME_MAX - 40;
const byCount = (name: string) => (Buffer.byteLength(name) <= READABLE_MAX ? name : shortName(name));

describe("a document's sidecar names at the readable bound", () => {
  it('are the ones its UTF-8 byte count gives, for any mix of character widths', () => {
    const units = ['a', 'é', '€', '😀', '\ud800', '\udc00'];
    let checked = 0;
    let short = 0;
    for (const unit of units)
      for (const tail of ['', ...units])
        for (let length = 60; length <= READABLE_MAX + 4; length++) {
          const name = unit.repeat(length).slice(0, length) + tail;
          const expected = byCount(name);
          assert.equal(auxName(name), expected, `${JSON.stringify(unit)} x ${length} + ${JSON.stringify(tail)}`);
          if (expected !== name) short++;
          checked++;
        }
    // Both sides of the bound were reached.
    assert.ok(short > 0 && short < checked);
  });

  it("a temp file's name is the one its UTF-8 byte count gives too, at NAME_MAX", () => {
    const units = ['a', 'é', '€', '😀', '\ud800', '\udc00'];
    const byBytes = (target: string) => {
      const plain = `.${target}.123.abcdef012345.tmp`;
      return Buffer.byteLength(plain) <= NAME_MAX ? plain : `.${shortName(target)}.123.abcdef012345.tmp`;
    };
    let checked = 0;
    let short = 0;
    for (const unit of units)
      for (const tail of ['', ...units])
        for (let length = 60; length <= NAME_MAX; length++) {
          const target = unit.repeat(length).slice(0, length) + tail;
          const expected = byBytes(target);
          assert.equal(tempName(target, 123, 'abcdef012345'), expected, `${JSON.stringify(unit)} x ${length}`);
          if (!expected.startsWith(`.${target}.`)) short++;
          checked++;
        }
    assert.ok(short > 0 && short < checked);
  });
});
