import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainPath } from '../../src/core/jq/plain-path.js';
import { batonInProcess, jq } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { rng } from './generate.js';
import { requireJqBinary, runJqAll, type Case } from './jq-binary.js';

// `baton get` reads a plain path (`.a.b`, `."k"`, `.["k"]`, `.a[0]`) without the jq engine
// (src/core/jq/plain-path.ts). Its answers must be the engine's, byte for byte, and jq 1.6's: the
// same read as `(PATH)`, which the lane does not take, over generated documents and paths, with
// --raw, --default and small step budgets, and the same as the real jq binary where jq answers.

// Keys a lookup could get wrong: inherited names, keywords, dots, quotes, digits, unicode, empty.
const KEYS = [
  'a',
  'b',
  'slug',
  'if',
  'end',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'length',
  'a.b',
  'with "quote"',
  'back\\slash',
  'é',
  '日本',
  '😀',
  '',
  ' ',
  '0',
  '10',
  '_x9',
];
// As text: what jq reads, and what the store parses (1e1000, -0 and 1.0 print as jq 1.6 prints them).
const NUMBERS = ['0', '-0', '1.0', '1e1000', '-1e1000', '0.1', '1e-7', '123456789012345678901', '1.5e300', '-42'];
const STRINGS = ['"x"', '""', '"é😀"', '"line\\nbreak"', '"\\u0000"', '"tab\\t"', '"quote\\""', '"null"'];

/**
 * Keys in the order a parsed object keeps them (integer-like ones first, ascending), so the text jq
 * reads lists them as the engine's parsed document does and both print them in one order.
 */
const inJsOrder = (keys: string[]): string[] => Object.keys(Object.fromEntries(keys.map((k) => [k, 0])));

function generateDoc(next: () => number, depth: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const r = next();
  if (depth > 0 && r < 0.45) {
    const keys = inJsOrder(Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(KEYS)));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${generateDoc(next, depth - 1)}`).join(',')}}`;
  }
  if (depth > 0 && r < 0.65)
    return `[${Array.from({ length: Math.floor(next() * 4) }, () => generateDoc(next, depth - 1)).join(',')}]`;
  if (r < 0.75) return 'null';
  if (r < 0.8) return pick(['true', 'false']);
  if (r < 0.9) return pick(NUMBERS);
  return pick(STRINGS);
}

/** A step as jq text, in one of the forms the lane reads. */
function stepText(step: string | number, first: boolean, next: () => number): string {
  if (typeof step === 'number') return `${first ? '.' : ''}[${step}]`;
  const forms = [`."${step}"`, `${first ? '.' : ''}["${step}"]`];
  if (/^[A-Za-z_][A-Za-z_0-9]*$/.test(step)) forms.push(`.${step}`);
  return forms[Math.floor(next() * forms.length)] as string;
}

/** A path down `doc`: mostly keys and indexes it has, sometimes ones it lacks, or through a leaf. */
function generatePath(doc: unknown, next: () => number): string {
  let text = '';
  let value = doc;
  const length = Math.floor(next() * 5);
  for (let i = 0; i < length; i++) {
    let step: string | number;
    if (Array.isArray(value) && next() < 0.8) step = Math.floor(next() * (value.length + 1));
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && next() < 0.8) {
      const keys = Object.keys(value);
      step = keys.length > 0 ? (keys[Math.floor(next() * keys.length)] as string) : 'a';
    } else step = next() < 0.7 ? (KEYS[Math.floor(next() * KEYS.length)] as string) : Math.floor(next() * 3);
    // The lane's strings have no escapes: a key that needs one is left to the engine's own tests.
    if (typeof step === 'string' && /["\\]/.test(step)) step = 'a';
    text += stepText(step, i === 0, next);
    const parent = value;
    value =
      parent !== null &&
      typeof parent === 'object' &&
      Array.isArray(parent) === (typeof step === 'number') &&
      Object.hasOwn(parent, step)
        ? (parent as Record<string | number, unknown>)[step]
        : undefined;
  }
  return text === '' ? '.' : text;
}

function generateCases(count: number): { doc: string; path: string }[] {
  const next = rng(23);
  const cases: { doc: string; path: string }[] = [];
  while (cases.length < count) {
    const keys = inJsOrder(
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => KEYS[Math.floor(next() * KEYS.length)] as string),
    );
    const doc = `{${keys.map((k) => `${JSON.stringify(k)}:${generateDoc(next, 3)}`).join(',')}}`;
    for (let i = 0; i < 4; i++) cases.push({ doc, path: generatePath(JSON.parse(doc), next) });
  }
  return cases;
}

test('the plain-path grammar: every path the generator writes is one, and lookalikes jq or the engine read otherwise are not', () => {
  for (const { path } of generateCases(40)) assert.ok(plainPath(path), path);
  for (const [expr, steps] of [
    ['.', []],
    ['.a', ['a']],
    ['.if.end', ['if', 'end']],
    ['."a.b"', ['a.b']],
    ['.["日本"][0]', ['日本', 0]],
    ['.a[10]."x y"', ['a', 10, 'x y']],
  ] as const)
    assert.deepEqual(plainPath(expr), steps, expr);
  for (const expr of [
    '',
    'a',
    '..',
    '. a',
    '.a ',
    ' .a',
    '.a.["b"]', // an error in jq 1.6
    '.a.[0]',
    '.a."b',
    '.[0:1]',
    '.[-1]',
    '.[01]',
    '.[1.5]',
    '.[1e2]',
    '.[]',
    '.a?',
    '.a[]',
    '."\\u0041"', // an escape: the engine's to read
    '."a\\"b"',
    '."\\(1)"',
    '."tab\there"',
    '.a|.b',
    '.a,.b',
    '.a #c',
    '.$a',
    '.@base64',
    '.a::b',
    '.[0000000001]',
    '.[12345678901]',
    '.1a',
  ])
    assert.equal(plainPath(expr), undefined, JSON.stringify(expr));
});

test('baton get of a plain path answers as the engine does for (PATH) and as jq 1.6 does, with --raw, --default and small step budgets', async () => {
  assert.equal(requireJqBinary(), 'jq-1.6');
  const cases = generateCases(240);
  const { dir, cleanup } = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n' });
  try {
    const compact = await runJqAll(cases.map(({ doc, path }): Case => ({ expr: path, input: doc })));
    const modes: string[][] = [[], ['--raw'], ['--default', 'D'], ['--raw', '--default', '-']];
    const counts = { answered: 0, raised: 0 };
    for (const [i, { doc, path }] of cases.entries()) {
      writeFileSync(join(dir, 'd.json'), doc);
      const get = (expr: string, flags: string[]) => batonInProcess(['get', 'd.json', expr, ...flags], { cwd: dir });
      const what = `get ${path} on ${doc}`;
      const reference = compact[i] as { ok: boolean; stdout: string; stderr: string };
      for (const flags of modes) {
        const lane = await get(path, flags);
        assert.deepEqual(lane, await get(`(${path})`, flags), `${what} ${flags.join(' ')}`);
        if (flags.length === 0) {
          // jq raises where the engine must: a key on an array, a string or a number, an index on an object.
          assert.equal(lane.code === 0, reference.ok, `${what}: ${lane.stderr} / jq: ${reference.stderr}`);
          if (reference.ok) assert.equal(lane.stdout, reference.stdout, what);
          counts[reference.ok ? 'answered' : 'raised']++;
        }
        // baton get --raw prints nothing for null (docs/cli.md), where jq -r prints `null`.
        if (flags[0] === '--raw' && flags.length === 1 && reference.ok && reference.stdout !== 'null\n')
          assert.equal(lane.stdout, jq(['-r', '-c', path], doc).stdout, `${what} --raw`);
      }
      // A step budget the engine's run of the path exceeds is refused as the engine refuses it.
      if (i % 8 === 0)
        for (let steps = 1; steps <= 2 * (plainPath(path)?.length ?? 0) + 2; steps++) {
          const flags = ['--jq-steps', String(steps)];
          assert.deepEqual(await get(path, flags), await get(`(${path})`, flags), `${what} --jq-steps ${steps}`);
        }
    }
    // The generator reaches both sides: values read, and reads jq refuses.
    assert.ok(counts.answered > 150 && counts.raised > 10, JSON.stringify(counts));
  } finally {
    cleanup();
  }
});
