/**
 * The plain-path lane: a jq expression that is only a path of object keys and array indexes
 * (`.`, `.a.b`, `."k"`, `.["k"]`, `.a[0]`) read without the engine. Most `baton get`s are such a
 * path, and the engine is most of the CLI's `get` bundle: a read that never loads it skips its
 * code and code cache (docs/benchmarks.md). Imports nothing of the engine, on purpose.
 *
 * Exact by refusal: the grammar is a strict subset of what jq 1.6 and the engine lex the same way
 * (no whitespace, comments, escapes or `?`), and a step the engine would answer with anything but
 * a plain lookup (a key on an array, a string or a number; an index on an object) makes the whole
 * read go to the engine, so every error and edge comes from the engine unchanged.
 */
import type { Json } from '../json.js';

/** A step: an object key, or a non-negative array index. */
export type PlainStep = string | number;

// A name after a dot, a string without escapes or control characters, an index without a sign
// or leading zero (small enough to be exact). The first step has a dot before a bracket (`.[0]`),
// a later one has none (`.a[0]`: jq 1.6 reads `.a.[0]` as an error).
const FIRST =
  /\.(?:([A-Za-z_][A-Za-z_0-9]*)|"([^"\\\u0000-\u001f]*)")|\.\[(?:"([^"\\\u0000-\u001f]*)"|(0|[1-9][0-9]{0,8}))\]/y;
const NEXT =
  /\.(?:([A-Za-z_][A-Za-z_0-9]*)|"([^"\\\u0000-\u001f]*)")|\[(?:"([^"\\\u0000-\u001f]*)"|(0|[1-9][0-9]{0,8}))\]/y;

/** The steps of `expr` when it is a plain path, else undefined. */
export function plainPath(expr: string): PlainStep[] | undefined {
  if (expr === '.') return [];
  if (expr === '') return undefined;
  const steps: PlainStep[] = [];
  for (let at = 0; at < expr.length;) {
    const step = at === 0 ? FIRST : NEXT;
    step.lastIndex = at;
    const m = step.exec(expr);
    if (!m) return undefined;
    steps.push(m[4] !== undefined ? Number(m[4]) : ((m[1] ?? m[2] ?? m[3]) as string));
    at = step.lastIndex;
  }
  return steps;
}

/** No plain answer: a step met a value the engine must answer (an error, as jq's). */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/**
 * What jq gives for `steps` on `input`: an object's own key (never an inherited one) or null, an
 * array's element or null, null on null; NOT_PLAIN for any other step.
 */
export function readPlain(input: Json, steps: readonly PlainStep[]): Json | typeof NOT_PLAIN {
  let value: Json = input;
  for (const step of steps) {
    if (value === null) continue;
    if (typeof step === 'string') {
      if (typeof value !== 'object' || Array.isArray(value)) return NOT_PLAIN;
      value = Object.hasOwn(value, step) ? (value[step] as Json) : null;
    } else {
      if (!Array.isArray(value)) return NOT_PLAIN;
      value = step < value.length ? (value[step] as Json) : null;
    }
  }
  return value;
}

/**
 * The steps the engine charges for a plain path of `steps` (a term and its key per step, and the
 * input): a budget smaller than that is the engine's to refuse (`jq_budget`), so the lane leaves
 * such a read to it.
 */
export const engineSteps = (steps: readonly PlainStep[]): number => 2 * steps.length + 1;
