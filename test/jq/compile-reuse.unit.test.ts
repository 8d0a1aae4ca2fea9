/**
 * compileJq keeps the programs it compiled for reuse (a long-running process applies the same few
 * updates again and again). A reused program must be the one the caller asked for: the same
 * expression with other variable names is another program, and a failed compile is not kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJq, JqError } from '../../src/core/jq/jq.js';

test('the same expression with other variables is compiled on its own', () => {
  assert.deepEqual(compileJq('$a + 1', ['a']).run(null, { a: 1 }), [2]);
  // Without `a` declared the expression does not compile, whatever was compiled before.
  assert.throws(() => compileJq('$a + 1', []), JqError);
  assert.throws(() => compileJq('$a + 1', ['b']), JqError);
  assert.deepEqual(compileJq('$a + $b', ['a', 'b']).run(null, { a: 1, b: 2 }), [3]);
  assert.throws(() => compileJq('$a + $b', ['a', 'b']).run(null, { a: 1 }), /\$b was declared but no value/);
});

test('a program is reused, and runs alike each time', () => {
  const first = compileJq('.n += 1');
  assert.equal(compileJq('.n += 1'), first);
  assert.deepEqual(first.run({ n: 1 }), [{ n: 2 }]);
  assert.deepEqual(compileJq('.n += 1').run({ n: 5 }), [{ n: 6 }]);
});

test('an expression that does not compile fails every time', () => {
  assert.throws(() => compileJq('.n +'), JqError);
  assert.throws(() => compileJq('.n +'), JqError);
});

test('a caller changing its list of names afterwards does not change the kept program', () => {
  const names = ['x'];
  const program = compileJq('$x', names);
  names.push('y');
  assert.deepEqual(program.run(null, { x: 7 }), [7]);
  assert.deepEqual(compileJq('$x', ['x']).run(null, { x: 8 }), [8]);
});
