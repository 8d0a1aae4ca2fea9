import { Raised, unsupported } from './jq-errors.js';
import type { Json, JsonObject } from './values.js';
import { compare, describe, equals, hasOwn, isObject, objCopy, objPut } from './values.js';
import { nativeNamed } from './builtins.js';
import { tick } from './budget.js';

function fail(a: Json, b: Json, what: string): never {
  throw new Raised(`${describe(a)} and ${describe(b)} ${what}`);
}

/** `a` with `b`'s keys added in order: one copy, each key placed as objSet would place it. */
function addKeys(a: JsonObject, b: JsonObject, merge: (av: Json | undefined, bv: Json) => Json): JsonObject {
  const r = objCopy(a);
  for (const k of Object.keys(b)) {
    tick();
    objPut(r, k, merge(hasOwn(r, k) ? r[k] : undefined, b[k] as Json));
  }
  return r;
}

function mergeRecursive(a: JsonObject, b: JsonObject): JsonObject {
  return addKeys(a, b, (av, bv) => (av !== undefined && isObject(av) && isObject(bv) ? mergeRecursive(av, bv) : bv));
}

function toIntmax(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) > Number.MAX_SAFE_INTEGER)
    throw unsupported('% on non-finite or huge numbers');
  return Math.trunc(x);
}

/** jq 1.6's _plus/_minus/_multiply/_divide/_mod and comparisons. */
export function binop(op: string, a: Json, b: Json): Json {
  switch (op) {
    case '+':
      if (a === null) return b;
      if (b === null) return a;
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      if (typeof a === 'string' && typeof b === 'string') return a + b;
      if (Array.isArray(a) && Array.isArray(b)) return a.concat(b);
      if (isObject(a) && isObject(b)) return addKeys(a, b, (_av, bv) => bv);
      return fail(a, b, 'cannot be added');
    case '-':
      if (typeof a === 'number' && typeof b === 'number') return a - b;
      if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => equals(x, y)));
      return fail(a, b, 'cannot be subtracted');
    case '*': {
      if (typeof a === 'number' && typeof b === 'number') return a * b;
      const s =
        typeof a === 'string' && typeof b === 'number' ? a : typeof b === 'string' && typeof a === 'number' ? b : null;
      if (s !== null) {
        const n = (typeof a === 'number' ? a : b) as number;
        if (!Number.isFinite(n) || n > 1e6) throw unsupported('string repetition by a huge or non-finite count');
        const times = Math.trunc(n - 1);
        if (times < 0) return null;
        tick(Math.ceil((s.length * (times + 1)) / 16)); // before the string is allocated
        return s.repeat(times + 1);
      }
      if (isObject(a) && isObject(b)) return mergeRecursive(a, b);
      return fail(a, b, 'cannot be multiplied');
    }
    case '/':
      if (typeof a === 'number' && typeof b === 'number') {
        if (b === 0) fail(a, b, 'cannot be divided because the divisor is zero');
        return a / b;
      }
      if (typeof a === 'string' && typeof b === 'string')
        return (nativeNamed('split/1') as (x: Json, y: Json) => Json)(a, b);
      return fail(a, b, 'cannot be divided');
    case '%':
      if (typeof a === 'number' && typeof b === 'number') {
        const y = toIntmax(b);
        if (y === 0) fail(a, b, 'cannot be divided because the divisor is zero');
        const r = toIntmax(a) % y;
        return r === 0 ? 0 : r;
      }
      return fail(a, b, 'cannot be divided');
    case '==':
      return equals(a, b);
    case '!=':
      return !equals(a, b);
    case '<':
      return compare(a, b) < 0;
    case '<=':
      return compare(a, b) <= 0;
    case '>':
      return compare(a, b) > 0;
    case '>=':
      return compare(a, b) >= 0;
  }
  throw unsupported(`operator ${op}`);
}
