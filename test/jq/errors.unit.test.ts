import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJq, formatJqCompact, formatJqRaw, JqError } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';

// Regex builtins run on an engine loaded on demand (Doc.get/update await this themselves).
await compileJq('test("")').ready();

function codeOf(f: () => unknown): JqError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof JqError, `expected a JqError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected an error');
}

const run = (expr: string, input: Json = null, vars?: Record<string, Json>) =>
  compileJq(expr, vars ? Object.keys(vars) : []).run(input, vars);

test('syntax errors carry jq_syntax, a column position and the offending token', () => {
  const cases: [string, number, string][] = [
    ['.a |', 4, '$end'],
    ['.[', 2, '$end'],
    ['{a: 1 + 2}', 6, '+'],
    ['1 == 1 == 1', 7, '=='],
    ['if . then 1 end', 12, 'end'],
    ['.a.[0]', 2, '.'],
  ];
  for (const [expr, pos, token] of cases) {
    const e = codeOf(() => compileJq(expr));
    assert.equal(e.code, 'jq_syntax', expr);
    assert.equal(e.position, pos, `${expr}: ${e.message}`);
    assert.match(e.message, new RegExp(`unexpected ${token.replace(/[$[\]+=]/g, '\\$&')}`), expr);
    assert.ok(!e.message.includes('\n'));
  }
  assert.equal(codeOf(() => compileJq('"\\x"')).code, 'jq_syntax');
  assert.equal(codeOf(() => compileJq('"abc')).code, 'jq_syntax');
});

test('undefined names fail at compile time like jq 1.6 ("... is not defined")', () => {
  for (const [expr, msg] of [
    ['$x', '$x is not defined'],
    ['foo', 'foo/0 is not defined'],
    ['isvalid(1)', 'isvalid/1 is not defined'],
    ['ascii', 'ascii/0 is not defined'],
    ['ltrimstr', 'ltrimstr/0 is not defined'],
    ['break $out', 'label-out is not defined'],
  ]) {
    const e = codeOf(() => compileJq(expr as string));
    assert.equal(e.code, 'jq_syntax', expr);
    assert.match(e.message, new RegExp(msg!.replace(/\$/g, '\\$')));
  }
  // Declared variables are fine; compile-time division by a zero literal is jq 1.6's "Division by zero?".
  assert.deepEqual(compileJq('$x + 1', ['x']).run(null, { x: 1 }), [2]);
  assert.equal(codeOf(() => compileJq('1 / 0')).code, 'jq_syntax');
  assert.deepEqual(run('0 / 0').map(formatJqCompact), ['null']);
});

test('constructs outside the subset are refused with jq_unsupported naming them', () => {
  const cases: [string, RegExp][] = [
    ['input', /input\/0/],
    ['env', /env\/0/],
    ['$ENV', /\$ENV/],
    ['stderr', /stderr\/0/],
    ['input_line_number', /input_line_number/],
    ['log', /log\/0/],
    ['localtime', /localtime/],
    ['. as [$a] ?// $a | $a', /\?\/\//],
    ['import "a" as a; .', /modules/],
    ['path(1)', /path expression/],
    ['"x" | test("(?<=a)x")', /regex/],
  ];
  for (const [expr, re] of cases) {
    const e = codeOf(() => run(expr, { a: 1 }));
    assert.equal(e.code, 'jq_unsupported', expr);
    assert.match(e.message, re, expr);
  }
  // Unsupported is never swallowed by try: refusing must not turn into a different answer.
  assert.equal(codeOf(() => run('try env catch "c"')).code, 'jq_unsupported');
  assert.equal(codeOf(() => run('[.[]? | input]', [1])).code, 'jq_unsupported');
  assert.equal(codeOf(() => run('{} | .b = 1 | .["1"] = 2')).code, 'jq_unsupported');
});

test('what stays refused says why and what to write instead', () => {
  const cases: [string, RegExp][] = [
    ['env.HOME', /env\/0: .*--arg/],
    ['$ENV.HOME', /\$ENV: .*--arg/],
    ['input', /input\/0: .*one input.*--arg/],
    ['[inputs]', /inputs\/0: .*--arg/],
    ['halt', /halt\/0: .*error\(/],
    ['halt_error(1)', /halt_error\/1: .*error\(/],
    ['now | localtime', /localtime\/0: .*UTC.*gmtime/],
    ['now | strflocaltime("%H")', /strflocaltime\/1: .*UTC.*strftime/],
    ['input_filename', /input_filename\/0: .*--arg/],
    ['get_search_list', /modules/],
  ];
  for (const [expr, re] of cases) {
    const e = codeOf(() => compileJq(expr));
    assert.equal(e.code, 'jq_unsupported', expr);
    assert.match(e.message, re, expr);
    assert.ok(!e.message.includes('\n'), expr);
  }
});

test('now is the instant the caller passes, the same number for every use in one run', () => {
  const at = new Date('2026-12-01T01:02:03.456Z');
  const prog = compileJq('[now, (now | todate), (now | strftime("%Y-%m-%dT%H:%M:%SZ")), (now | gmtime | mktime), $t]', [
    't',
  ]);
  assert.deepEqual(prog.run(null, { t: 'x' }, { now: at }), [
    [at.getTime() / 1000, '2026-12-01T01:02:03Z', '2026-12-01T01:02:03Z', 1796086923, 'x'],
  ]);
  // Without an instant, now is when run() was called: a read's own start.
  const before = Date.now() / 1000;
  const [n] = compileJq('now').run(null) as number[];
  assert.ok(n! >= before && n! <= Date.now() / 1000 + 1);
  // A program may still define its own now.
  assert.deepEqual(compileJq('def now: 7; now').run(null, {}, { now: at }), [7]);
});

test('runtime errors carry jq_runtime with a jq-like message', () => {
  const cases: [string, Json, RegExp][] = [
    ['.a + 1', { a: 'x' }, /string \("x"\) and number \(1\) cannot be added/],
    ['.a.b', { a: 1 }, /Cannot index number with string "b"/],
    ['.[]', 3, /Cannot iterate over number \(3\)/],
    ['error("boom")', null, /^boom$/],
    ['error({"a":1})', null, /\{"a":1\} \(not a string\)/],
    ['.[-5] = 1', [1], /Out of bounds negative array index/],
    ['$x / 0', null, /divisor is zero/],
    ['{} | .a -= 1', null, /cannot be subtracted/],
    ['[1] | flatten(-1)', null, /flatten depth must not be negative/],
    ['true | length', null, /boolean \(true\) has no length/],
    ['{(1): 2}', null, /Cannot use number \(1\) as object key/],
  ];
  for (const [expr, input, re] of cases) {
    const e = codeOf(() => compileJq(expr, ['x']).run(input, { x: 5 }));
    assert.equal(e.code, 'jq_runtime', expr);
    assert.match(e.message, re, expr);
  }
  assert.deepEqual(run('try error("x") catch .'), ['x']);
  assert.deepEqual(run('.a?', 3), []);
});

test('formatJqCompact and formatJqRaw print like jq -c / jq -r', () => {
  assert.equal(formatJqCompact({ b: [1, 'é', null], a: 1e-7 }), '{"b":[1,"é",null],"a":1e-07}');
  assert.equal(
    formatJqCompact([1e21, 1e17, 1e16, 1e15, -0, 0.1, Infinity, -Infinity, NaN]),
    '[1e+21,1e+17,1e+16,1000000000000000,-0,0.1,1.7976931348623157e+308,-1.7976931348623157e+308,null]',
  );
  assert.equal(formatJqCompact('\u007f\u0000\u001f\b\f\n\r\t"\\/'), '"\\u007f\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/"');
  assert.equal(formatJqRaw('a\nb'), 'a\nb');
  assert.equal(formatJqRaw([1, 'x']), '[1,"x"]');
});

// Its speed is a row of `npm run bench` (bench/suites/core.mjs): a clock here fails on a loaded machine.
test('a compiled program is reusable: each run sees its own input and arguments, and changes neither', () => {
  const doc: Json = {
    items: Array.from({ length: 80 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'], done: i % 3 === 0 })),
  };
  const copy = JSON.stringify(doc);
  const prog = compileJq('.items |= map(select(.done | not)) | .count += 1 | .last = $t', ['t']);
  for (let i = 0; i < 50; i++) {
    const [out] = prog.run(doc, { t: `x${i}` }) as [{ items: unknown[]; count: number; last: string }];
    assert.deepEqual([out.items.length, out.count, out.last], [53, 1, `x${i}`]);
  }
  assert.equal(JSON.stringify(doc), copy);
  assert.deepEqual(prog.run({ count: 41, items: [] }, { t: 'y' }), [{ count: 42, items: [], last: 'y' }]);
});

test('a stack run out names what ran out: the nesting of a value, or the recursion of a def', () => {
  const deep = codeOf(() => run('reduce range(100000) as $i (null; [.]) | tojson'));
  assert.equal(deep.code, 'jq_budget');
  assert.match(deep.message, /value nested deeper/);
  assert.doesNotMatch(deep.message, /nested calls of a recursive def/);
  assert.match(deep.message, /bound the nesting depth/);
  const def = codeOf(() => run('def f: f; f'));
  assert.equal(def.code, 'jq_budget');
  assert.match(def.message, /nested calls of a recursive def/);
  assert.match(def.message, /bound the recursion/);
});
