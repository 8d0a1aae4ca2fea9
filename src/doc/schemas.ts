import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BatonError, isBatonError } from '../core/errors.js';
import { CONFIG_FILE_MAX_BYTES, readFileBounded } from '../fs/bounded-read.js';
import { isInside, realTarget } from '../fs/confine.js';
import { RACY_NS } from '../fs/kept-reads.js';
import type { Json } from '../core/json.js';
import {
  BUILTIN_SCHEMAS,
  builtinRules,
  compileSchema,
  DEFAULT_SCHEMA,
  schemaRules,
  type CompiledSchema,
  type SchemaRules,
} from '../core/schema/schema.js';
import { isSchemaPath } from '../project/policy/state-files.js';

/**
 * Compiled schema files, each under the identity of the file it was read from: a process that
 * lives on (baton serve, baton mcp, the dashboard) sees an edited, replaced or deleted schema file
 * at its next use, as a new CLI process would. A file changed less than RACY_NS before its use is
 * compiled again at each use until it has settled.
 */
const cache = new Map<string, { version: string; pending: Promise<CompiledSchema> }>();

/** A built-in schema by name, or a JSON Schema file by path (compiled again only when the file changes). */
export async function loadSchema(ref: string | undefined, root: string): Promise<CompiledSchema> {
  const name = ref ?? DEFAULT_SCHEMA;
  if (builtinRules(name)) {
    const { builtinSchema } = await import('../core/schema/builtin-schemas.js');
    const builtin = builtinSchema(name);
    if (builtin) return builtin;
  }
  const file = schemaFile(name, root);
  const started = BigInt(Date.now()) * 1_000_000n;
  const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  const version = stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : '';
  const cached = cache.get(file);
  if (cached && cached.version === version && version !== '') return cached.pending;
  const pending = compileSchema(name, readSchemaFile(file));
  // Kept only once settled, as kept reads are (fs/kept-reads.ts): on a kernel that stamps times
  // from a coarse clock, a same-size rewrite within the tick of this stat would keep its identity.
  if (stat && stat.ctimeNs < started - RACY_NS) cache.set(file, { version, pending });
  else cache.delete(file);
  return pending;
}

/**
 * A schema's rules without its validator, for a read: where the mirrors go. A built-in one loads
 * no validator and a file is not compiled (no Ajv); the same names are refused as by loadSchema.
 */
export function loadSchemaRules(ref: string | undefined, root: string): SchemaRules {
  const name = ref ?? DEFAULT_SCHEMA;
  return builtinRules(name) ?? schemaRules(name, readSchemaFile(schemaFile(name, root)));
}

/** The real path of a schema named by path, confined to the project; a bad name is refused. */
function schemaFile(name: string, root: string): string {
  if (!isSchemaPath(name)) {
    throw new BatonError(
      'usage',
      `unknown schema '${name}'; use a built-in name (${BUILTIN_SCHEMAS.join(', ')}) or a path to a JSON Schema file`,
    );
  }
  return confinedSchema(isAbsolute(name) ? name : resolve(root, name), root);
}

/**
 * A schema decides a document's rules and where its mirrors land: one from outside the project (a
 * file an agent wrote in /tmp) is refused, symlinks followed. Returns the file's real path.
 */
function confinedSchema(file: string, root: string): string {
  const real = realTarget(file);
  if (!isInside(realTarget(root), real))
    throw new BatonError(
      'unsafe_path',
      `schema file ${file} is outside the project ${root}${real === file ? '' : ` (through a symlink, to ${real})`}; use a built-in schema or one inside the project, nothing was written`,
    );
  return real;
}

function readSchemaFile(file: string): Json {
  let text: string;
  try {
    text = readFileBounded(file, CONFIG_FILE_MAX_BYTES, `schema file ${file}`, 'fix the schema file');
  } catch (error) {
    if (isBatonError(error)) throw error;
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
