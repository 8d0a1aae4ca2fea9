import { BatonError } from './errors.js';
import { depthOver, MAX_DEPTH_CEILING } from './limits.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Documents are written as jq writes them: 2-space indent, key order kept, trailing newline. */
export function formatDocument(doc: Json): string {
  const text = JSON.stringify(doc, null, 2);
  // JSON.stringify escapes a lone UTF-16 surrogate as \udXXX and pairs never, so only then walk.
  // A text without \u (most documents) needs no regex compiled to tell.
  if (text.includes('\\u') && /\\u[dD][89a-fA-F]/.test(text)) refuseLoneSurrogates(doc, 'the document');
  return `${text}\n`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string holding half of a UTF-16 surrogate pair is valid to JavaScript but has no UTF-8 form:
 * jq and most JSON readers refuse the file. Refused at every write and at every JSON argument.
 */
function refuseLoneSurrogates(value: Json, what: string, code: 'invalid' | 'usage' = 'invalid', path = ''): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value))
      throw new BatonError(
        code,
        `${what}${path ? ` at ${path}` : ''} holds a lone UTF-16 surrogate (such as "\\ud800"), which jq cannot read; write the whole character or its surrogate pair`,
      );
  } else if (Array.isArray(value)) value.forEach((item, i) => refuseLoneSurrogates(item, what, code, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      refuseLoneSurrogates(key, what, code, `${path} (a key)`);
      refuseLoneSurrogates(item, what, code, `${path}.${key}`);
    }
  }
}

/**
 * Parses a value given on the command line as JSON (`--argjson`, `--json`). JSON.parse nests as
 * deep as the text does, but every walk after it (this one's checks, the engine, the write path)
 * recurses: a value deeper than any document may be (MAX_DEPTH_CEILING) is refused here, exit 4,
 * before one of them overflows the stack. A project's own, lower maxDepth is held at the write.
 */
export function parseJsonArg(text: string, what: string): Json {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (error) {
    throw new BatonError(
      'usage',
      `invalid JSON for ${what}: ${(error as Error).message}; quote strings as '"text"' or drop --json/--argjson`,
    );
  }
  if (depthOver(value, MAX_DEPTH_CEILING))
    throw new BatonError(
      'too_large',
      `${what} is nested deeper than ${MAX_DEPTH_CEILING} levels, the most any document may nest (maxDepth is at most ${MAX_DEPTH_CEILING}); flatten the value`,
    );
  refuseLoneSurrogates(value, what, 'usage');
  return value;
}

/** Short content hash used to tie a history entry to the exact text it committed. */
export { twoLaneFnv1a as hashText } from './hash.js';

/** The hosts' and the task document's notion of a set field: null, missing, false and '' are empty; 0 is a value. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== '';
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a value is JSON: for the parts of a typed document whose generated type says `unknown`
 * (a run's variables), and for a typed document handed back to the engine as the JSON it is.
 * Recursive: it is given values of documents the engine read, which are within maxDepth.
 */
export function isJson(value: unknown): value is Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJson);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return isJson(value) && isObject(value);
}

export function typeName(value: Json | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}
