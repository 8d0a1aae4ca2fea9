import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJq, formatJqCompact, JqError } from '../../src/core/jq/jq.js';
import type { Json } from '../../src/core/jq/jq.js';
import { requireJqBinary, runJqAll } from './jq-binary.js';

async function baton(expr: string): Promise<string> {
  const program = compileJq(expr);
  await program.ready();
  return program
    .run(null)
    .map((v: Json) => formatJqCompact(v) + '\n')
    .join('');
}

async function batonError(expr: string): Promise<JqError> {
  try {
    await baton(expr);
  } catch (e) {
    if (e instanceof JqError) return e;
    throw e;
  }
  assert.fail(`${expr} answered`);
}

// Builtins jq 1.6 defines by recursion but runs as loops: baton answered none of the deep ones
// ("recursed deeper than baton's engine allows"). Each is compared with the jq 1.6 binary.
const LOOPS = [
  '[limit(3000; repeat(1))] | length',
  '("a" * 100) | [splits("")] | length',
  '("a" * 100) | [splits("")] | .[0:3]',
  '[limit(5000; 0 | recurse(. + 1))] | length',
  '[0 | recurse(. + 1; . < 5000)] | length',
  '[0 | while(. < 5000; . + 1)] | length',
  '0 | until(. >= 5000; . + 1)',
  '[range(0; 5000; 1)] | length',
  '[range(0; 10; 3)], [range(5; 0; -2)], [range(0; 3; 0)], [range(0; 1; 0.25)], [range(1, 2; 4; 1, 2)]',
  '[limit(3; range(0; "a"; 1))]',
  '[try range(0; 10; "a") catch .]',
  '[1 | while(. < 20; . * 2, . * 3)]',
  '[1 | until(. > 20; . * 2, . * 3)]',
  '[0 | recurse(if . < 3 then . + 1, . + 10 else empty end)]',
  '[0 | recurse(. + 1, . + 2; . < 4)]',
  '[limit(5; 0 | repeat(. + 1, . + 2))]',
  '[try recurse(if . < 2 then . + 1, error("e") else empty end) catch .]',
  '[try limit(3; repeat(1, error("x"))) catch .]',
  '[try (1 | while(. < 10; . + 1, error("w"))) catch .]',
  '{"a": [1, {"b": [2]}]} | [paths], [..], [path(..)], [leaf_paths]',
  '[{"a": {"b": 1}} | recurse(.[]?; type == "object")]',
  '("ab " * 300) | [splits(" ")] | length',
  '("ab " * 3000) | gsub("a"; "x") | length',
  '("a1b2" * 2000) | gsub("(?<d>\\\\d)"; "<\\(.d)>") | length',
  '("a1b2" * 2000) | [scan("[a-b]")] | length',
  '("ab " * 3000) | [match("b"; "g")] | length',
  '"abab" | [gsub("(?<x>a)"; "[\\(.x)]", "<\\(.x)>")]',
  '"abab" | [try gsub("a"; "x", error("e")) catch .]',
  '"abab" | [try gsub("(?<x>a)"; if .x == "a" then "y" else error("e") end) catch .]',
  '"abab" | [gsub("a"; empty)]',
  '"abab" | [try gsub("a"; 1) catch .]',
  '"abab" | [gsub("a"; null)]',
  '"aaa" | gsub("^a"; "b"), gsub("a$"; "b"), gsub("(?<x>a)(?<y>z)?"; "\\(.y)")',
  '"aé😀b é" | gsub("é"; "e"), [splits("😀")], [splits(" ")]',
  '"" | gsub("x*"; "-"), gsub("a"; "b")',
  '"a,b, c" | split(", *"; null), sub(","; ";"; "g"), gsub(","; ";"; "i")',
];

test('differential: builtins jq runs as loops answer past the recursion limit, as jq 1.6 does', async () => {
  requireJqBinary();
  const jq = await runJqAll(LOOPS.map((expr) => ({ expr, input: 'null' })));
  for (const [i, expr] of LOOPS.entries()) {
    const reference = jq[i] as { ok: boolean; stdout: string; stderr: string };
    assert.ok(reference.ok, `jq 1.6 failed on ${expr}: ${reference.stderr}`);
    assert.equal(await baton(expr), reference.stdout, expr);
  }
});

test('gsub with a pattern that matches the empty string, which never ends in jq 1.6, is refused by name', async () => {
  for (const expr of ['"abc" | gsub(""; "-")', '"abc" | gsub("x*"; "-")', '"abc" | sub("^"; "-"; "g")']) {
    const e = await batonError(expr);
    assert.equal(e.code, 'jq_unsupported', expr);
    assert.match(e.message, /empty string \(jq 1\.6 never finishes/);
  }
});
