import { BatonError } from './errors.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Documents are written as jq writes them: 2-space indent, key order kept, trailing newline. */
export function formatDocument(doc: Json): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function parseDocument(text: string, label: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new BatonError('corrupt', `${label} is not valid JSON (${(error as Error).message}); run 'baton doctor --repair' to restore the last good revision`);
  }
}

/** Parses a value given on the command line as JSON (`--argjson`, `--json`). */
export function parseJsonArg(text: string, what: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new BatonError('usage', `invalid JSON for ${what}: ${(error as Error).message}; quote strings as '"text"' or drop --json/--argjson`);
  }
}

/** Short content hash used to tie a history entry to the exact text it committed. */
export { fnv64 as hashText } from './hash.js';

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
