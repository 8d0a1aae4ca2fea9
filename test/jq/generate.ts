import type { Case } from './jq-binary.js';
import { STATE } from './corpus.js';

/** Small deterministic PRNG (mulberry32) so the generated corpus is stable across runs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DOCS = [
  STATE,
  '{"a":1,"b":[1,2],"c":{"d":"x"}}',
  '[3,1,"x",null,{"k":1},[2]]',
  '{"n":{"m":[{"v":1},{"v":"2"}]},"s":"str","z":null,"t":true}',
  'null',
  '"text"',
  '42',
  '{"10":1,"2":2}',
];

const PATHS = [
  '.',
  '.a',
  '.b',
  '.b[0]',
  '.b[-1]',
  '.n.m[]',
  '.n.m[0].v',
  '.missing',
  '.s',
  '.[0]',
  '.[]',
  '.[1:]',
  '.z',
  '.k?',
  '.["a"]',
  '.c.d',
  '.active_agents[]',
  '.phases["3-impl"]',
  '.wave',
  '.[]?',
  '.a.b',
  '.tags[0]',
];
const VALUES = [
  '1',
  '"x"',
  'null',
  'true',
  '[1]',
  '{"q":1}',
  '.a',
  'length',
  '$v',
  '$s',
  '-2.5',
  '0',
  '""',
  '[]',
  '{}',
];
const OPS = ['+', '-', '*', '/', '%', '==', '!=', '<', '>=', 'and', 'or', '//'];
const FILTERS = [
  'length',
  'keys',
  'type',
  'tostring',
  'tojson',
  'not',
  'add',
  'sort',
  'reverse',
  'to_entries',
  'from_entries',
  'map(.)',
  'unique',
  'min',
  'max',
  'floor',
  'ascii_downcase',
  'explode',
  '[paths]',
  '[leaf_paths]',
  '[tostream]',
  'flatten',
  'any',
  'all',
  'first',
  'last',
  'keys_unsorted',
  'values',
  'select(. != null)',
  'tostring | length',
  '[.[]?]',
  'arrays',
  'objects',
  'strings',
  'numbers',
  'map(type)',
  'map_values(type)',
  'with_entries(.)',
  'del(.a)',
  'has("a")',
  'has(0)',
  '.[0]?',
  'join(",")',
  'split(",")',
  'ltrimstr("t")',
  'sort_by(type)',
  'group_by(type)',
  'min_by(length)',
  'add // 0',
  '@json',
  '@text',
  '@csv',
  '@tsv',
  '@sh',
  '@html',
  '@uri',
  '@base64',
  'tostring | @base64d',
  'isempty(.[]?)',
  'to_entries | from_entries',
  'walk(.)',
  '[..]',
  'length > 1',
  'type == "object"',
  'contains([1])',
  'inside([1,2,3])',
  'indices(1)',
  'index("x")',
  'implode',
  '. as [$x, $y] | [$y, $x]',
  'getpath(["a"])',
  'setpath(["a"]; 1)',
  'delpaths([["a"]])',
  'splits("x")',
  'test("x")',
];

const pick = <T>(r: () => number, xs: T[]): T => xs[Math.floor(r() * xs.length)] as T;

const TEMPLATES: ((r: () => number) => string)[] = [
  (r) => `${pick(r, PATHS)} = ${pick(r, VALUES)}`,
  (r) => `${pick(r, PATHS)} |= ${pick(r, FILTERS)}`,
  (r) => `${pick(r, PATHS)} ${pick(r, ['+=', '-=', '*=', '/=', '%=', '//='])} ${pick(r, VALUES)}`,
  (r) => `del(${pick(r, PATHS)})`,
  (r) => `[${pick(r, PATHS)}]`,
  (r) => `${pick(r, PATHS)} | ${pick(r, FILTERS)}`,
  (r) => `${pick(r, VALUES)} ${pick(r, OPS)} ${pick(r, VALUES)}`,
  (r) => `${pick(r, PATHS)} ${pick(r, OPS)} ${pick(r, VALUES)}`,
  (r) => `[${pick(r, PATHS)}] | ${pick(r, FILTERS)}`,
  (r) => `path(${pick(r, PATHS)})`,
  (r) => `[paths(${pick(r, ['type == "number"', 'type == "string"', '. == null', 'true'])})]`,
  (r) => `${pick(r, PATHS)} as $x | $x ${pick(r, OPS)} ${pick(r, VALUES)}`,
  (r) => `{k: ${pick(r, PATHS)}, ${pick(r, ['a', '"b"', '$v', '(.s // "z")'])}: ${pick(r, VALUES)}}`,
  (r) => `"<\\(${pick(r, PATHS)})>"`,
  (r) => `reduce ${pick(r, PATHS)} as $x (0; . ${pick(r, OPS)} $x)`,
  (r) => `[.[]? | ${pick(r, FILTERS)}]`,
  (r) => `if ${pick(r, PATHS)} then ${pick(r, VALUES)} else ${pick(r, FILTERS)} end`,
  (r) => `try (${pick(r, PATHS)} | ${pick(r, FILTERS)}) catch "c"`,
  (r) => `${pick(r, PATHS)} |= (${pick(r, FILTERS)}) | ${pick(r, PATHS)}`,
  (r) => `${pick(r, PATHS)} = ${pick(r, VALUES)} | ${pick(r, PATHS)} += ${pick(r, VALUES)}`,
  (r) => `[${pick(r, PATHS)} | ${pick(r, FILTERS)}] | ${pick(r, FILTERS)}`,
  (r) => `to_entries | map(select(.value ${pick(r, ['!=', '=='])} ${pick(r, VALUES)})) | from_entries`,
  (r) => `${pick(r, FILTERS)} | ${pick(r, FILTERS)}`,
  (r) => `[limit(${pick(r, ['0', '1', '2', '-1'])}; ${pick(r, PATHS)})]`,
  (r) => `first(${pick(r, PATHS)}) // ${pick(r, VALUES)}`,
];

export function generateCases(count: number, seed = 1234): Case[] {
  const r = rng(seed);
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      expr: pick(r, TEMPLATES)(r),
      input: pick(r, DOCS),
      args: [
        { name: 'v', value: '2', json: true },
        { name: 's', value: 'hi' },
      ],
    });
  }
  return out;
}
