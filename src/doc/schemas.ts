import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import {
  BUILTIN_SCHEMAS,
  builtinSchema,
  compileSchema,
  DEFAULT_SCHEMA,
  type CompiledSchema,
} from '../core/schema/index.js';

const cache = new Map<string, Promise<CompiledSchema>>();

/** A built-in schema by name, or a JSON Schema file by path (compiled once per process). */
export function loadSchema(ref: string | undefined, root: string): Promise<CompiledSchema> {
  const name = ref ?? DEFAULT_SCHEMA;
  const builtin = builtinSchema(name);
  if (builtin) return Promise.resolve(builtin);
  if (!name.includes('/') && !name.endsWith('.json')) {
    return Promise.reject(
      new BatonError(
        'usage',
        `unknown schema '${name}'; use a built-in name (${BUILTIN_SCHEMAS.join(', ')}) or a path to a JSON Schema file`,
      ),
    );
  }
  const file = isAbsolute(name) ? name : resolve(root, name);
  let pending = cache.get(file);
  if (!pending) {
    pending = compileSchema(name, readSchemaFile(file));
    cache.set(file, pending);
  }
  return pending;
}

function readSchemaFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new BatonError('usage', `schema file ${file} cannot be read; check the --schema path`);
  }
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new BatonError(
      'usage',
      `schema file ${file} is not valid JSON (${(error as Error).message}); fix the schema file`,
    );
  }
}
