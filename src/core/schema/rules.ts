/**
 * baton's own schema keywords, under `x-baton`, for what JSON Schema cannot say: who may write
 * which field, what never changes, who may create or delete the document, which fields only named
 * operations may change, the stamp field and mirror files.
 */
import { BatonError } from '../errors.js';
import { isObject, type Json, type JsonObject } from '../json.js';

export interface Mirror {
  /** Top-level field copied out. */
  field: string;
  /** File name relative to the document's folder. */
  file: string;
  /** Content written when the field is empty or the document is deleted. */
  empty: string;
}

export interface BatonRules {
  stamp?: string;
  stampFormat: 'seconds' | 'millis';
  immutable: string[];
  /** Field name -> writers allowed to change it (`name` or `prefix*`). */
  owners: Record<string, string[]>;
  /**
   * Field name -> operations allowed to change it (e.g. a run's `phases` only through `phase`).
   * The engine checks it on every write, whichever face makes it: a plain update, set, revert or
   * replacing init names no operation and is refused.
   */
  sealed: Record<string, string[]>;
  create?: string[];
  delete?: string[];
  mirrors: Mirror[];
  coerceIntegers: boolean;
  maxValueBytes?: number;
}

export function readRules(schema: JsonObject, label: string): BatonRules {
  const raw = schema['x-baton'] ?? {};
  if (!isObject(raw)) throw bad(label, 'x-baton must be an object');
  const rules: BatonRules = {
    stampFormat: raw.stampFormat === 'millis' ? 'millis' : 'seconds',
    immutable: stringList(raw.immutable, 'immutable', label),
    owners: {},
    sealed: {},
    mirrors: [],
    coerceIntegers: raw.coerceIntegers === true,
  };
  if (raw.stamp !== undefined) rules.stamp = string(raw.stamp, 'stamp', label);
  if (raw.create !== undefined) rules.create = stringList(raw.create, 'create', label);
  if (raw.delete !== undefined) rules.delete = stringList(raw.delete, 'delete', label);
  if (raw.maxValueBytes !== undefined) {
    if (typeof raw.maxValueBytes !== 'number' || raw.maxValueBytes <= 0)
      throw bad(label, 'maxValueBytes must be a positive number');
    rules.maxValueBytes = raw.maxValueBytes;
  }
  if (raw.owners !== undefined) {
    if (!isObject(raw.owners)) throw bad(label, 'owners must map field names to writer lists');
    for (const [field, writers] of Object.entries(raw.owners))
      rules.owners[field] = stringList(writers, `owners.${field}`, label);
  }
  if (raw.sealed !== undefined) {
    if (!isObject(raw.sealed)) throw bad(label, 'sealed must map field names to operation lists');
    for (const [field, operations] of Object.entries(raw.sealed))
      rules.sealed[field] = stringList(operations, `sealed.${field}`, label);
  }
  for (const mirror of Array.isArray(raw.mirrors) ? raw.mirrors : []) {
    if (!isObject(mirror)) throw bad(label, 'each mirror must be {field, file, empty}');
    const file = string(mirror.file, 'mirrors[].file', label);
    if (file.includes('..') || file.startsWith('/'))
      throw bad(label, `mirror file '${file}' must stay inside the document's folder`);
    rules.mirrors.push({
      field: string(mirror.field, 'mirrors[].field', label),
      file,
      empty: typeof mirror.empty === 'string' ? mirror.empty : '',
    });
  }
  return rules;
}

export function writerMatches(writer: string | undefined, allowed: string[]): boolean {
  if (writer === undefined) return false;
  return allowed.some((pattern) =>
    pattern.endsWith('*') ? writer.startsWith(pattern.slice(0, -1)) : writer === pattern,
  );
}

function string(value: Json | undefined, key: string, label: string): string {
  if (typeof value !== 'string' || value === '') throw bad(label, `${key} must be a non-empty string`);
  return value;
}

function stringList(value: Json | undefined, key: string, label: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw bad(label, `${key} must be a list of strings`);
  return value;
}

function bad(label: string, message: string): BatonError {
  return new BatonError('usage', `schema ${label}: x-baton ${message}; fix the schema file`);
}
