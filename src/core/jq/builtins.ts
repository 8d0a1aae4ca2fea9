import { tick } from './budget.js';
import { Raised, unsupported } from './jq-errors.js';
import { applyFormat, dumpCompact } from './format.js';
import { delPaths, setPath } from './path-functions.js';
import { matchImpl } from './regex.js';
import { gmtime, mktime, strftime, strptime } from './date-builtins.js';
import type { Json, JsonObject } from './values.js';
import { codepointLength, compare, describe, equals, hasOwn, isObject, kindOf, sortedKeys } from './values.js';

/** A C-coded jq builtin: one output per combination of argument values. */
export type ValueNative = (input: Json, ...args: Json[]) => Json;

let sawNaN = false;
function cmpTracked(a: Json, b: Json): number {
  if ((typeof a === 'number' && a !== a) || (typeof b === 'number' && b !== b)) sawNaN = true;
  return compare(a, b);
}
/** jq's sort is only defined by its comparator; with nan the comparator is not a total order. */
function guardedSort<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  sawNaN = false;
  const out = items.slice().sort(cmp);
  if (sawNaN || items.some(hasNaNDeep)) throw unsupported('sorting values that contain nan');
  return out;
}
function hasNaNDeep(v: unknown): boolean {
  tick();
  if (typeof v === 'number') return v !== v;
  if (Array.isArray(v)) return v.some(hasNaNDeep);
  if (v && typeof v === 'object') return Object.values(v).some(hasNaNDeep);
  return false;
}

function num(v: Json): number {
  if (typeof v !== 'number') throw new Raised(`${describe(v)} number required`);
  return v;
}

function arr(v: Json, what: string): Json[] {
  if (!Array.isArray(v)) throw new Raised(`${describe(v)} cannot be ${what}, as it is not an array`);
  return v;
}

function str(v: Json, msg: string): string {
  if (typeof v !== 'string') throw new Raised(msg);
  return v;
}

function contains(a: Json, b: Json): boolean {
  tick();
  const ka = kindOf(a);
  if (ka !== kindOf(b) && !(typeof a === 'boolean' && typeof b === 'boolean')) {
    throw new Raised(`${describe(a)} and ${describe(b)} cannot have their containment checked`);
  }
  if (isObject(a)) {
    const bo = b as JsonObject;
    return Object.keys(bo).every((k) => hasOwn(a, k) && contains(a[k] as Json, bo[k] as Json));
  }
  if (Array.isArray(a))
    return (b as Json[]).every((x) =>
      a.some((y) =>
        kindOf(y) === kindOf(x) || (typeof x === 'boolean' && typeof y === 'boolean') ? contains(y, x) : false,
      ),
    );
  if (typeof a === 'string') {
    tick(a.length >> 4);
    if (a.includes('\0') || (b as string).includes('\0')) throw unsupported('contains on strings with NUL');
    return a.includes(b as string);
  }
  return equals(a, b);
}

function byKeys(input: Json, keys: Json, what: string): [Json, Json][] {
  const items = arr(input, what);
  const ks = arr(keys, what);
  if (ks.length !== items.length) throw new Raised(`${what} keys mismatch`);
  return items.map((x, i) => [x, ks[i] as Json]);
}

function minMax(pairs: [Json, Json][], max: boolean): Json {
  if (pairs.length === 0) return null;
  sawNaN = false;
  let best = pairs[0] as [Json, Json];
  for (const p of pairs.slice(1)) {
    const c = cmpTracked(p[1], best[1]);
    if (max ? c >= 0 : c < 0) best = p;
  }
  if (sawNaN) throw unsupported('min/max over values that contain nan');
  return best[0];
}

function implode(v: Json): Json {
  const cps = arr(v, 'imploded');
  let out = '';
  for (const c of cps) {
    if (typeof c !== 'number') throw unsupported('implode of a non-number (jq 1.6 aborts)');
    const cp = Math.trunc(c);
    if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      throw unsupported('implode of an invalid code point');
    out += String.fromCodePoint(cp);
  }
  return out;
}

function tonumber(v: Json): Json {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') throw new Raised(`${describe(v)} cannot be parsed as a number`);
  tick(v.length >> 4);
  if (/^[ \t\n\r]*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?[ \t\n\r]*$/.test(v)) return Number(v);
  // With no digit and no nan/infinity spelling, jq's JSON parser cannot produce a number either.
  if (!/[0-9]/.test(v) && !/nan|inf/i.test(v)) throw new Raised(`${describe(v)} cannot be parsed as a number`);
  throw unsupported('tonumber on a string that is not a plain JSON number');
}

function hasIntegerKeyOrderRisk(v: Json): boolean {
  if (Array.isArray(v)) return v.some(hasIntegerKeyOrderRisk);
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > 1 && keys.some((k) => /^(?:0|[1-9][0-9]*)$/.test(k))) return true;
    return keys.some((k) => hasIntegerKeyOrderRisk(v[k] as Json));
  }
  return false;
}

function fromjson(v: Json): Json {
  const s = str(v, `${describe(v)} only strings can be parsed`);
  tick(s.length >> 4);
  let parsed: Json;
  try {
    parsed = JSON.parse(s) as Json;
  } catch (e) {
    // Empty or truncated text is an error for jq's lenient parser too.
    if (s.trim() === '' || /end of (JSON )?input/i.test(String(e))) throw new Raised(`${s} (while parsing '${s}')`);
    throw unsupported('fromjson on text that is not strict JSON (jq 1.6 accepts some extensions)');
  }
  if (/\\u[dD][89a-fA-F]/.test(s) && hasLoneSurrogate(parsed))
    throw unsupported('fromjson with lone surrogate escapes');
  if (hasIntegerKeyOrderRisk(parsed)) throw unsupported('fromjson of objects with integer-like keys (key order)');
  return parsed;
}

function hasLoneSurrogate(v: Json): boolean {
  if (typeof v === 'string') return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(v);
  if (Array.isArray(v)) return v.some(hasLoneSurrogate);
  if (isObject(v)) return Object.keys(v).some((k) => hasLoneSurrogate(k) || hasLoneSurrogate(v[k] as Json));
  return false;
}

function strindices(v: Json, i: Json): Json {
  const s = str(v, 'strindices requires strings');
  const needle = str(i, 'strindices requires strings');
  tick(s.length >> 4);
  // jq 1.6 reports byte offsets and loops on an empty needle; only the ASCII case agrees with us.
  if (needle === '' || /[^\x00-\x7f]/.test(s))
    throw unsupported('indices on non-ASCII strings or with an empty needle');
  const out: number[] = [];
  for (let p = s.indexOf(needle); p !== -1; p = s.indexOf(needle, p + needle.length)) out.push(p);
  return out;
}

function split(v: Json, sep: Json): Json {
  if (typeof v !== 'string' || typeof sep !== 'string') throw new Raised('split input and separator must be strings');
  if (v === '') return [];
  if (sep === '') {
    if (/[^\x00-\x7f]/.test(v)) throw unsupported('split("") on non-ASCII strings');
    return v.split('');
  }
  return v.split(sep);
}

function round(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function pow(a: Json, b: Json): Json {
  const x = num(a);
  const y = num(b);
  const r = Math.pow(x, y);
  // Only results that are exact in any libm are trusted: integer powers with safe-integer results.
  if (Number.isInteger(x) && Number.isInteger(y) && y >= 0 && Math.abs(r) <= Number.MAX_SAFE_INTEGER) return r;
  throw unsupported('pow with a non-integer or inexact result (libm rounding may differ)');
}

function length(v: Json): Json {
  if (v === null) return 0;
  if (typeof v === 'boolean') throw new Raised(`${describe(v)} has no length`);
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'string') return codepointLength(v);
  if (Array.isArray(v)) return v.length;
  return Object.keys(v).length;
}

function keys(v: Json, sorted: boolean): Json {
  if (isObject(v)) return sorted ? sortedKeys(v) : Object.keys(v);
  if (Array.isArray(v)) return v.map((_, i) => i);
  throw new Raised(`${describe(v)} has no keys`);
}

function has(v: Json, k: Json): Json {
  if (isObject(v) && typeof k === 'string') return hasOwn(v, k);
  if (Array.isArray(v) && typeof k === 'number') return k >= 0 && k < v.length;
  throw new Raised(`Cannot check whether ${kindOf(v)} has a ${kindOf(k)} key`);
}

function trimmer(left: boolean): ValueNative {
  return (v, x) => {
    if (typeof v !== 'string' || typeof x !== 'string') return v;
    tick(x.length >> 4);
    if (left) return v.startsWith(x) ? v.slice(x.length) : v;
    return v.endsWith(x) && x.length > 0 ? v.slice(0, v.length - x.length) : v;
  };
}

// Unicode White_Space: what jq 1.8's trim, ltrim and rtrim remove.
const WS =
  '\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

function trimWhitespace(left: boolean, right: boolean): ValueNative {
  return (v) => {
    // jq 1.8 raises an error for other inputs; its wording is not pinned by an oracle, so refuse.
    if (typeof v !== 'string') throw unsupported('trim, ltrim or rtrim of a non-string');
    let start = 0;
    let end = v.length;
    while (left && start < end && WS.includes(v[start] as string)) start++;
    while (right && end > start && WS.includes(v[end - 1] as string)) end--;
    return v.slice(start, end);
  };
}

function abs(v: Json): Json {
  // jq 1.8's manual defines abs as `if . < 0 then - . else . end` on numbers; builds differ on other inputs.
  if (typeof v !== 'number') throw unsupported('abs of a non-number');
  return v < 0 ? -v : v;
}

function affix(name: string, test: (s: string, x: string) => boolean): ValueNative {
  return (v, x) => {
    if (typeof v !== 'string' || typeof x !== 'string') throw new Raised(`${name}() requires string inputs`);
    tick(x.length >> 4);
    return test(v, x);
  };
}

function math(f: (x: number) => number): ValueNative {
  return (v) => f(num(v));
}

function sortByImpl(input: Json, ks: Json): Json {
  return guardedSort(byKeys(input, ks, 'sorted'), (a, b) => cmpTracked(a[1], b[1])).map((p) => p[0]);
}

function groupByImpl(input: Json, ks: Json): Json {
  const sorted = guardedSort(byKeys(input, ks, 'grouped'), (a, b) => cmpTracked(a[1], b[1]));
  const groups: Json[][] = [];
  let prev: Json | undefined;
  for (const [x, k] of sorted) {
    if (prev !== undefined && equals(prev, k)) (groups[groups.length - 1] as Json[]).push(x);
    else groups.push([x]);
    prev = k;
  }
  return groups;
}

let natives: Record<string, ValueNative> | undefined;

/**
 * The native builtin `key` (`name/arity`). The table is built on first use: it is ~80 closures,
 * made at every start when it was a module constant, which an expression that calls no builtin
 * (`baton get doc .field`) never reads.
 */
export function nativeNamed(key: string): ValueNative | undefined {
  return (natives ??= nativeTable())[key];
}

/** Keyed by `name/arity`. Arguments arrive already evaluated (cartesian, last argument outermost). */
const nativeTable = (): Record<string, ValueNative> => ({
  'length/0': length,
  'utf8bytelength/0': (v) => {
    if (typeof v !== 'string') throw new Raised(`${describe(v)} only strings have UTF-8 byte length`);
    tick(v.length >> 4);
    return Buffer.byteLength(v, 'utf8');
  },
  'not/0': (v) => v === null || v === false,
  'keys/0': (v) => keys(v, true),
  'keys_unsorted/0': (v) => keys(v, false),
  'has/1': has,
  'contains/1': (a, b) => contains(a, b),
  'setpath/2': (v, p, x) => setPath(v, p, x),
  'delpaths/1': (v, ps) => delPaths(v, ps),
  'tostring/0': (v) => (typeof v === 'string' ? v : dumpCompact(v)),
  'tonumber/0': tonumber,
  'tojson/0': (v) => dumpCompact(v),
  'fromjson/0': fromjson,
  'type/0': (v) => kindOf(v),
  'infinite/0': () => Infinity,
  'nan/0': () => NaN,
  'isinfinite/0': (v) => {
    const x = num(v);
    return x === Infinity || x === -Infinity;
  },
  'isnan/0': (v) => {
    const x = num(v);
    return x !== x;
  },
  'isnormal/0': (v) => {
    const x = num(v);
    return Number.isFinite(x) && Math.abs(x) >= 2.2250738585072014e-308;
  },
  'sort/0': (v) => guardedSort(arr(v, 'sorted'), cmpTracked),
  '_sort_by_impl/1': sortByImpl,
  '_group_by_impl/1': groupByImpl,
  'min/0': (v) =>
    minMax(
      arr(v, 'minimized').map((x) => [x, x]),
      false,
    ),
  'max/0': (v) =>
    minMax(
      arr(v, 'maximized').map((x) => [x, x]),
      true,
    ),
  '_min_by_impl/1': (v, k) => minMax(byKeys(v, k, 'minimized'), false),
  '_max_by_impl/1': (v, k) => minMax(byKeys(v, k, 'maximized'), true),
  'explode/0': (v) => Array.from(str(v, 'explode input must be a string'), (c) => c.codePointAt(0) as number),
  'implode/0': implode,
  'split/1': split,
  'ltrimstr/1': trimmer(true),
  'rtrimstr/1': trimmer(false),
  'startswith/1': affix('startswith', (s, x) => s.startsWith(x)),
  'endswith/1': affix('endswith', (s, x) => s.endsWith(x)),
  '_strindices/1': strindices,
  'format/1': (v, f) => applyFormat(str(f, `${describe(f)} is not a valid format`), v),
  '_match_impl/3': matchImpl,
  'floor/0': math(Math.floor),
  'ceil/0': math(Math.ceil),
  'sqrt/0': math(Math.sqrt),
  'fabs/0': math(Math.abs),
  'trunc/0': math(Math.trunc),
  'round/0': math(round),
  'pow/2': (_v, a, b) => pow(a, b),
  'gmtime/0': gmtime,
  'mktime/0': mktime,
  'strftime/1': strftime,
  'strptime/1': strptime,
  // jq 1.7/1.8 additions (docs/jq.md lists them).
  'abs/0': abs,
  'trim/0': trimWhitespace(true, true),
  'ltrim/0': trimWhitespace(true, false),
  'rtrim/0': trimWhitespace(false, true),
  'have_literal_numbers/0': () => false,
  'have_decnum/0': () => false,
  // Messages of debug go to jq's stderr; baton's answer is the value, which passes through.
  'debug/0': (v) => v,
  '_negate/0': (v) => {
    if (typeof v !== 'number') throw new Raised(`${describe(v)} cannot be negated`);
    return -v;
  },
});
