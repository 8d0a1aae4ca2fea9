import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsedPrelude } from '../../src/generated/jq-prelude.js';
import { parseDef } from '../../src/core/jq/parser.js';
import { preludeSource } from '../../src/core/jq/prelude.js';
import { compileJq } from '../../src/core/jq/jq.js';

test('the prelude parsed at build time is what parsing its source gives (a stale build fails here)', () => {
  // Every assignment operator desugars to one of these (jq 1.6 parser.y).
  assert.deepEqual(Object.keys(parsedPrelude).sort(), ['_assign/2', '_modify/2']);
  for (const [key, json] of Object.entries(parsedPrelude)) {
    const src = preludeSource(key);
    assert.ok(src, key);
    assert.deepEqual(JSON.parse(json as string), JSON.parse(JSON.stringify(parseDef(src))), key);
  }
});

test('assignments run through the definitions parsed at build time', () => {
  const doc = { a: [1, 2, 3], n: 1 };
  assert.deepEqual(compileJq('.n += 1 | .a[1:] |= map(. * 10) | .b = .n').run(doc), [{ a: [1, 20, 30], n: 2, b: 2 }]);
  assert.deepEqual(compileJq('.[] |= empty').run([1, 2, 3, 4, 5]), [[2, 4]]);
});
