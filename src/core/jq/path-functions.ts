/**
 * jq's indexing and path functions on values: `.[k]` and slices (getIndex), getpath, setpath and
 * delpaths, with jq 1.6's results and error texts.
 */
import { tick } from './budget.js';
import { Raised, unsupported } from './jq-errors.js';
import type { Json, JsonObject } from './values.js';
import { compare, describe, equals, getOwn, isObject, kindOf, objDelete, objSet } from './values.js';
import { dumpCompact } from './format.js';

function keyDesc(k: Json): string {
  return typeof k === 'string' ? `string ${dumpCompact(k)}` : kindOf(k);
}

function codepoints(s: string): string[] {
  tick(s.length >> 4);
  return Array.from(s);
}

/** jq's parse_slice: null bounds default, negatives count from the end, end rounds up. */
function sliceBounds(len: number, from: Json, to: Json): [number, number] {
  let s = from === null ? 0 : from;
  let e = to === null ? len : to;
  if (typeof s !== 'number' || typeof e !== 'number')
    throw new Raised('Start and end indices of an array slice must be numbers');
  if (s < 0) s += len;
  if (e < 0) e += len;
  if (s < 0) s = 0;
  if (s > len) s = len;
  if (e > len) e = len;
  if (e < s) e = s;
  const start = Math.trunc(s);
  const end = e > Math.trunc(e) ? Math.trunc(e) + 1 : Math.trunc(e);
  return [start, end];
}

function isSliceKey(k: Json): k is JsonObject {
  return isObject(k);
}

/** jv_get: the value at one path component. */
export function getIndex(t: Json, k: Json): Json {
  if (isObject(t) && typeof k === 'string') return getOwn(t, k) ?? null;
  if (Array.isArray(t) && typeof k === 'number') {
    if (!Number.isInteger(k)) return null;
    const i = k < 0 ? t.length + k : k;
    return i >= 0 && i < t.length ? (t[i] as Json) : null;
  }
  if (t === null && (typeof k === 'string' || typeof k === 'number' || isSliceKey(k))) return null;
  if (isSliceKey(k) && (Array.isArray(t) || typeof t === 'string')) {
    const len = Array.isArray(t) ? t.length : codepoints(t).length;
    const [s, e] = sliceBounds(len, getOwn(k, 'start') ?? null, getOwn(k, 'end') ?? null);
    if (Array.isArray(t)) {
      tick(e - s);
      return t.slice(s, e);
    }
    return codepoints(t).slice(s, e).join('');
  }
  if (Array.isArray(t) && Array.isArray(k)) return arrayIndices(t, k);
  if (typeof k === 'string' && typeof t !== 'object') throw new Raised(`Cannot index ${kindOf(t)} with ${keyDesc(k)}`);
  throw new Raised(`Cannot index ${kindOf(t)} with ${kindOf(k)}`);
}

function arrayIndices(a: Json[], b: Json[]): Json {
  // jv_array_indexes: an empty needle matches nowhere in jq 1.6.
  const out: number[] = [];
  if (b.length === 0) return null;
  for (let i = 0; i + b.length <= a.length; i++) {
    let ok = true;
    for (let j = 0; j < b.length; j++)
      if (!equals(a[i + j] as Json, b[j] as Json)) {
        ok = false;
        break;
      }
    if (ok) out.push(i);
  }
  return out;
}

/** jv_set: copy-on-write update of one component. */
function setIndex(t: Json, k: Json, v: Json): Json {
  if (typeof k === 'string' && (t === null || isObject(t))) return objSet(t ?? {}, k, v);
  if (typeof k === 'number' && (t === null || Array.isArray(t))) {
    const arr = t ?? [];
    let i = Math.trunc(k);
    if (i < 0) {
      i += arr.length;
      if (i < 0) throw new Raised('Out of bounds negative array index');
    }
    if (i > 100_000_000) throw unsupported('array index too large');
    if (i > arr.length) tick(i - arr.length); // the nulls it pads with are allocated values
    const r = arr.slice();
    while (r.length < i) r.push(null);
    r[i] = v;
    return r;
  }
  if (isSliceKey(k) && (t === null || Array.isArray(t))) {
    if (!Array.isArray(v)) throw new Raised('A slice of an array can only be assigned another array');
    const arr = t ?? [];
    const [s, e] = sliceBounds(arr.length, getOwn(k, 'start') ?? null, getOwn(k, 'end') ?? null);
    return [...arr.slice(0, s), ...v, ...arr.slice(e)];
  }
  if (isSliceKey(k)) throw new Raised(`Cannot update field at object index of ${kindOf(t)}`);
  throw new Raised(`Cannot index ${kindOf(t)} with ${keyDesc(k)}`);
}

function requirePath(p: Json): Json[] {
  if (!Array.isArray(p)) throw new Raised('Path must be specified as an array');
  return p;
}

export function getPath(t: Json, p: Json): Json {
  if (p === null) return t;
  const path = requirePath(p);
  let cur = t;
  for (const k of path) {
    if (cur === null) {
      // jv_get(null, k) is null for the usual key kinds, an error otherwise.
      getIndex(null, k);
      continue;
    }
    cur = getIndex(cur, k);
  }
  return cur;
}

export function setPath(t: Json, p: Json, v: Json): Json {
  const path = requirePath(p);
  const rec = (cur: Json, i: number): Json => {
    if (i === path.length) return v;
    const k = path[i] as Json;
    return setIndex(cur, k, rec(getIndex(cur, k), i + 1));
  };
  return rec(t, 0);
}

export function delPaths(t: Json, ps: Json): Json {
  if (!Array.isArray(ps)) throw new Raised('Paths must be specified as an array');
  const paths = ps.slice().sort(compare);
  for (const p of paths) if (!Array.isArray(p)) throw new Raised('Path must be specified as an array');
  if (paths.length === 0) return t;
  if ((paths[0] as Json[]).length === 0) return null;
  return delSorted(t, paths as Json[][], 0);
}

function delSorted(obj: Json, paths: Json[][], start: number): Json {
  const delkeys: Json[] = [];
  for (let i = 0; i < paths.length;) {
    const key = (paths[i] as Json[])[start] as Json;
    const delkey = (paths[i] as Json[]).length === start + 1;
    let j = i;
    while (j < paths.length && equals(key, (paths[j] as Json[])[start] as Json)) j++;
    if (delkey) delkeys.push(key);
    else {
      const sub = getIndex(obj, key);
      if (sub !== null) obj = setIndex(obj, key, delSorted(sub, paths.slice(i, j), start + 1));
    }
    i = j;
  }
  return delKeys(obj, delkeys);
}

function delKeys(t: Json, keys: Json[]): Json {
  if (t === null || keys.length === 0) return t;
  if (Array.isArray(t)) {
    const del = new Set<number>();
    const ranges: [number, number][] = [];
    for (const k of keys) {
      if (typeof k === 'number') del.add(k < 0 ? t.length + Math.trunc(k) : Math.trunc(k));
      else if (isSliceKey(k)) ranges.push(sliceBounds(t.length, getOwn(k, 'start') ?? null, getOwn(k, 'end') ?? null));
      else throw new Raised(`Cannot delete ${kindOf(k)} element of array`);
    }
    return t.filter((_, i) => !del.has(i) && !ranges.some(([s, e]) => s <= i && i < e));
  }
  if (isObject(t)) {
    const names = new Set<string>();
    for (const k of keys) {
      if (typeof k !== 'string') throw new Raised(`Cannot delete ${kindOf(k)} field of object`);
      names.add(k);
    }
    return objDelete(t, names);
  }
  throw new Raised(`Cannot delete fields from ${kindOf(t)}`);
}

export { describe };
