import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJq, formatJqCompact } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';
import { MAX_DEPTH_CEILING } from '../../src/core/limits.js';
import { requireJqBinary, runJqAll, type Case } from './jq-binary.js';

async function baton(c: Case): Promise<string> {
  const program = compileJq(c.expr);
  await program.ready();
  return program
    .run(JSON.parse(c.input) as Json, {}, { limits: { maxDepth: MAX_DEPTH_CEILING } })
    .map((v: Json) => formatJqCompact(v) + '\n')
    .join('');
}

async function sameAsJq(cases: Case[]): Promise<void> {
  requireJqBinary();
  const jq = await runJqAll(cases);
  for (const [i, c] of cases.entries()) {
    const reference = jq[i] as { ok: boolean; stdout: string; stderr: string };
    const name = `${c.expr} on ${c.input.slice(0, 40)}`;
    assert.ok(reference.ok, `jq 1.6 failed on ${name}: ${reference.stderr}`);
    assert.equal(await baton(c), reference.stdout, name);
  }
}

/** `[[...[leaf]...]]` or `{"a":{"a":...leaf}}`, `depth` levels of containers. */
function nested(depth: number, kind: 'array' | 'object', leaf: Json = 1): string {
  let v: Json = leaf;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v, [`k${i % 3}`]: i };
  return JSON.stringify(v);
}

// Documents as deep as baton's default maxDepth (256); jq 1.6 parses arrays that deep, objects
// half as deep (its parser counts a key as a level).
const DEEP = [
  'walk(.)',
  'walk(if type == "number" then . + 1 else . end)',
  '[walk(if type == "array" then .[0] else . end)] | length',
  'walk(if type == "object" then del(.k0) else . end) | [paths] | length',
  '[paths] | length',
  '[..] | length',
  '[recurse] | length',
  '[leaf_paths] | length',
  'tostring | length',
  'tojson | length',
  '. == .',
  '[., .] | sort | .[0] == .[1]',
  '. as $d | [paths] | last as $p | $d | getpath($p)',
];

test('differential: the builtins that walk a value answer on documents nested as deep as maxDepth allows, as jq 1.6 does', async () => {
  const cases: Case[] = [];
  for (const input of [nested(200, 'array'), nested(256, 'array'), nested(128, 'object')])
    for (const expr of DEEP) cases.push({ expr, input });
  await sameAsJq(cases);
});

test("the same builtins answer on documents as deep as maxDepth's ceiling, past what jq 1.6 parses", async () => {
  for (const kind of ['array', 'object'] as const) {
    const text = nested(MAX_DEPTH_CEILING - 1, kind);
    const answers = await Promise.all(DEEP.map((expr) => baton({ expr, input: text })));
    assert.equal(answers[0], text + '\n', 'walk(.)');
    assert.equal(answers[4], `${kind === 'array' ? MAX_DEPTH_CEILING - 1 : 2 * (MAX_DEPTH_CEILING - 1)}\n`, '[paths]');
    assert.equal(answers[8], `${text.length}\n`, 'tostring');
    assert.equal(answers[10], 'true\n', '. == .');
    assert.equal(answers[11], 'true\n', 'sort');
  }
});

test('differential: walk(f) gives jq 1.6 outputs when f yields none, several or an error', async () => {
  const input = JSON.stringify({ b: [1, { c: 2 }], a: 3, d: 'x', '1': null });
  await sameAsJq(
    [
      'walk(.)',
      '[walk(if type == "number" then ., . * 10 else . end)]',
      '[walk(if type == "number" then empty else . end)]',
      '[walk(if type == "array" then empty else . end)]',
      'try walk(if . == 2 then error("two") else . end) catch .',
      '[limit(1; walk(if type == "object" then ., 1 else . end))]',
      '[walk(if type == "object" then keys else . end)]',
      'walk(tostring)',
      '3 | path(walk(.))',
      'def walk(f): "mine"; walk(.)',
    ].map((expr) => ({ expr, input })),
  );
});

// Recursive defs of the user's own, each level a closure over the last (`n - 1` is evaluated
// through every enclosing level's `n`): ~30 nested calls exhausted the JS stack before terms of
// one value were evaluated directly.
const RECURSIVE = [
  (n: number) => `def f(n): if n == 0 then 0 else 1 + f(n - 1) end; f(${n})`,
  (n: number) => `def f($n): if $n == 0 then 0 else 1 + f($n - 1) end; f(${n})`,
  (n: number) => `def f: if . < ${n} then . + 1 | f else . end; 0 | f`,
  (n: number) => `def f: if . < ${n} then (. + 1 | f) + 0 else . end; 0 | f`,
  (n: number) => `def f(n): if n > 0 then [f(n - 1)] else [] end; f(${n}) | [paths] | length`,
  (n: number) => `def f(n; acc): if n == 0 then acc else f(n - 1; acc + n) end; f(${n}; 0)`,
];

test('differential: recursive defs 100 and 400 calls deep answer as in jq 1.6', async () => {
  await sameAsJq([100, 400].flatMap((depth) => RECURSIVE.map((f) => ({ expr: f(depth), input: 'null' }))));
});
