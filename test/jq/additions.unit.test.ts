import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { compileJq, formatJqCompact, JqError } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';

// Regex builtins run on an engine loaded on demand (Doc.get/update await this themselves).
await compileJq('test("")').ready();

// jq-wasm embeds jq 1.7.1: the oracle for the additions it knows. Test-only; nothing loads it at run time.
const jqWasm = createRequire(import.meta.url)('jq-wasm') as {
  raw(input: string, filter: string, flags?: string[]): Promise<string>;
};

type Outcome = { out: string } | { error: true } | { refused: string };

async function oracle(expr: string, input: string): Promise<Outcome> {
  const exitCode = process.exitCode;
  try {
    return { out: await jqWasm.raw(input, expr, ['-c']) };
  } catch (e) {
    assert.doesNotMatch(String(e), /is not defined/, `jq-wasm knows ${expr}`);
    return { error: true };
  } finally {
    process.exitCode = exitCode; // the emscripten build sets jq's exit status on the host process
  }
}

function baton(expr: string, input: string): Outcome {
  try {
    return {
      out: compileJq(expr)
        .run(JSON.parse(input) as Json)
        .map(formatJqCompact)
        .join('\n'),
    };
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    return e.code === 'jq_unsupported' ? { refused: e.message } : { error: true };
  }
}

// jq 1.7 prints number literals of the input as written (1E+300); computed numbers print as in 1.6.
// [expression, input]: pick, debug/1, scan/2 and abs on numbers, as jq 1.7 introduced them.
const ORACLE_CASES: [string, string][] = [
  ['pick(.a)', '{"a":1,"b":2}'],
  ['pick(.a.b)', '{"a":{"b":1,"c":2},"d":3}'],
  ['pick(.a, .b)', '{"a":1}'],
  ['pick(.a)', 'null'],
  ['pick(.[0])', '[1,2]'],
  ['pick(.[1][0])', '[1,[2,3]]'],
  ['pick(.[-1])', '[1,2]'],
  ['pick(empty)', '{"a":1}'],
  ['pick(.a[1:])', '{"a":[1,2]}'],
  ['pick(.a[]?)', '{"a":[1,2]}'],
  ['pick(first(.a, .b))', '{"a":1,"b":2}'],
  ['pick(.x.y)', '{"x":1}'],
  ['pick(.slug, .phase, .missing)', '{"slug":"s","phase":2,"x":1}'],
  ['pick(.tasks[] | select(.done) | .id)', '{"tasks":[{"id":1,"done":true},{"id":2,"done":false}]}'],
  ['[.[] | pick(.id)]', '[{"id":1,"x":2},{"id":3}]'],
  ['[debug("m", 2)]', '1'],
  ['debug(error("x"))', '1'],
  ['[.[] | debug("v=\\(.)")]', '[1,2]'],
  ['debug(empty)', '{"a":1}'],
  ['.a |= debug("a")', '{"a":1}'],
  ['[scan("ab"; "i")]', '"abAB"'],
  ['[scan("(a)(b)"; "g")]', '"abab"'],
  ['[scan("a"; null)]', '"aa"'],
  ['[scan("c"; "")]', '"abc"'],
  ['[scan("(?<x>a)"; "g")]', '"a b a"'],
  ['[scan("a"; 1)]', '"a"'],
  ['[scan("\\\\d+"; "g")]', '"a1b22c333"'],
  ['[scan("[a-z]+"; "i")]', '"Foo bar"'],
  ['[scan("x"; null)]', '1'],
  ['[scan(1; null)]', '"a"'],
  ['map(abs)', '[-10, -1.1, -0.1, 0, -0, 3]'],
  ['map(. * 1 | abs)', '[1e300, -1e-300, -2.5e-7]'],
  ['abs', '-5'],
  ['[.[] | abs]', '[-1.5, 2]'],
  ['.n |= abs', '{"n":-3}'],
];

test('pick, debug/1, scan/2 and abs agree with jq 1.7 (jq-wasm) wherever baton answers', async () => {
  const mismatches: string[] = [];
  let answered = 0;
  for (const [expr, input] of ORACLE_CASES) {
    const b = baton(expr, input);
    if ('refused' in b) continue;
    answered++;
    const o = await oracle(expr, input);
    if ('error' in b ? !('error' in o) : !('out' in o) || o.out.trim() !== b.out)
      mismatches.push(`${expr} on ${input}: jq 1.7 ${JSON.stringify(o)} vs baton ${JSON.stringify(b)}`);
  }
  assert.deepEqual(mismatches, []);
  assert.ok(answered >= ORACLE_CASES.length - 1, `answered ${answered} of ${ORACLE_CASES.length}`);
});

const run = (expr: string, input: Json = null): Json[] => compileJq(expr).run(input);
const refused = (expr: string, input: Json = null): boolean => {
  try {
    run(expr, input);
    return false;
  } catch (e) {
    return e instanceof JqError && e.code === 'jq_unsupported';
  }
};

test('abs, toarray, trim, ltrim, rtrim, @base32d and have_* follow the jq 1.8 manual', () => {
  // abs: "defined naively as: if . < 0 then - . else . end"; builds disagree on non-numbers, so baton refuses those.
  assert.deepEqual(run('map(abs)', [-10, -1.1, -1e-1]), [[10, 1.1, 0.1]]);
  assert.ok(Object.is(run('abs', -0)[0], -0));
  assert.ok(refused('abs', 'abc') && refused('abs', null));
  // toarray: "if type == "array" then . else [.] end".
  assert.deepEqual(run('map(toarray)', [1, [2], 'x', null, {}]), [[[1], [2], ['x'], [null], [{}]]]);
  assert.deepEqual(run('.tags |= toarray', { tags: 'one' }), [{ tags: ['one'] }]);
  // trim/ltrim/rtrim: the manual's example, and whitespace beyond ASCII (Unicode White_Space).
  assert.deepEqual(run('trim, ltrim, rtrim', ' abc '), ['abc', 'abc ', ' abc']);
  assert.deepEqual(run('trim', '\u00a0\u3000\t x y\u2028\n\u0085'), ['x y']);
  assert.deepEqual(run('trim', '\ufeffx\u200b'), ['\ufeffx\u200b'], 'BOM and zero-width space are not White_Space');
  assert.deepEqual(run('[trim, ltrim, rtrim]', ' \n\t '), [['', '', '']]);
  assert.ok(refused('trim', 1));
  // @base32d: RFC 4648 test vectors.
  const vectors: [string, string][] = [
    ['', ''],
    ['MY======', 'f'],
    ['MZXQ====', 'fo'],
    ['MZXW6===', 'foo'],
    ['MZXW6YQ=', 'foob'],
    ['MZXW6YTB', 'fooba'],
    ['MZXW6YTBOI======', 'foobar'],
  ];
  for (const [enc, dec] of vectors) assert.deepEqual(run('@base32d', enc), [dec], enc);
  assert.deepEqual(run('@base32d "x\\(.)"', 'MZXW6==='), ['xfoo']);
  assert.ok(refused('@base32d', 'mzxw6===') && refused('@base32d', 'MZXW6') && refused('@base32d', '74======'));
  assert.deepEqual(run('[have_literal_numbers, have_decnum]'), [[false, false]]);
});
