import { tick, work } from './budget.js';
import { unsupported } from './jq-errors.js';
import { dumpCompact } from './format.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function hasOwn(o: JsonObject, k: string): boolean {
  return Object.hasOwn(o, k);
}

/** Reads an own key only: `o["toString"]` must not reach the prototype. */
export function getOwn(o: JsonObject, k: string): Json | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

export function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function kindOf(v: Json): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as 'boolean' | 'number' | 'string' | 'object';
}

export function truthy(v: Json): boolean {
  return v !== null && v !== false;
}

const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
function isIndexKey(k: string): boolean {
  return INDEX_KEY.test(k) && Number(k) < 4294967295;
}

/**
 * JS objects enumerate integer-like keys first, ascending; jq keeps insertion order.
 * Adding such a key after a key that would then sort behind it would make every later
 * `keys_unsorted`, `to_entries` and printed object differ from jq, so we refuse instead.
 */
function checkInsertOrder(o: JsonObject, k: string): void {
  if (!isIndexKey(k)) return;
  const n = Number(k);
  for (const other of Object.keys(o)) {
    if (!isIndexKey(other) || Number(other) > n) {
      throw unsupported(
        `inserting integer-like object key "${k}" after other keys (JS objects cannot keep jq's key order)`,
      );
    }
  }
}

/** Sets an own property, also for "__proto__", without mutating `o`'s prototype chain. */
function defineOwn(o: JsonObject, k: string, v: Json): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Copy-on-write object update with jq's key-order semantics. */
export function objSet(o: JsonObject, k: string, v: Json): JsonObject {
  if (!hasOwn(o, k)) checkInsertOrder(o, k);
  const r: JsonObject = {};
  const keys = Object.keys(o);
  work(keys.length);
  for (const key of keys) defineOwn(r, key, o[key] as Json);
  defineOwn(r, k, v);
  return r;
}

/** A shallow copy, keys in order. */
export function objCopy(o: JsonObject): JsonObject {
  const r: JsonObject = {};
  const keys = Object.keys(o);
  work(keys.length);
  for (const key of keys) defineOwn(r, key, o[key] as Json);
  return r;
}

/** In-place insert for objects under construction (same order check). */
export function objPut(o: JsonObject, k: string, v: Json): void {
  if (!hasOwn(o, k)) checkInsertOrder(o, k);
  defineOwn(o, k, v);
}

export function objDelete(o: JsonObject, keys: Set<string>): JsonObject {
  const r: JsonObject = {};
  const all = Object.keys(o);
  work(all.length);
  for (const key of all) if (!keys.has(key)) defineOwn(r, key, o[key] as Json);
  return r;
}

const KIND_ORDER = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 } as const;

function kindRank(v: Json): number {
  if (v === true) return 2;
  return KIND_ORDER[kindOf(v)];
}

/** jq's total order (jv_cmp). Strings compare by code point, i.e. UTF-8 byte order. */
export function compare(a: Json, b: Json): number {
  tick();
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number') {
    const db = b as number;
    // jq 1.6 treats nan as smaller than every number, itself included.
    if (a < db || a !== a) return -1;
    return a === db ? 0 : 1;
  }
  if (typeof a === 'string') {
    tick(a.length >> 4);
    return compareStrings(a, b as string);
  }
  if (Array.isArray(a)) {
    const bb = b as Json[];
    const n = Math.min(a.length, bb.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i] as Json, bb[i] as Json);
      if (c !== 0) return c;
    }
    return a.length === bb.length ? 0 : a.length < bb.length ? -1 : 1;
  }
  if (isObject(a)) {
    const bo = b as JsonObject;
    const ka = sortedKeys(a);
    const kb = sortedKeys(bo);
    tick(ka.length + kb.length);
    const c = compare(ka, kb);
    if (c !== 0) return c;
    for (const k of ka) {
      const c2 = compare(a[k] as Json, bo[k] as Json);
      if (c2 !== 0) return c2;
    }
    return 0;
  }
  return 0;
}

function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      // Surrogates (astral chars) must sort above U+E000..U+FFFF as in code point order.
      const sa = ca >= 0xd800 && ca <= 0xdfff;
      const sb = cb >= 0xd800 && cb <= 0xdfff;
      if (sa !== sb) return sa ? 1 : -1;
      return ca < cb ? -1 : 1;
    }
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareStrings);
}

export function equals(a: Json, b: Json): boolean {
  return compare(a, b) === 0;
}

/** Short value description used in jq error messages, e.g. `number (1)`. */
export function describe(v: Json): string {
  let s = dumpCompact(v, 11);
  if (s.length > 11) s = s.slice(0, 10) + '...';
  return `${kindOf(v)} (${s})`;
}

export function codepointLength(s: string): number {
  tick(s.length >> 4);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}
