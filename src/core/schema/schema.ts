import type { ErrorObject } from 'ajv';
import { BatonError, type Issue } from '../errors.js';
import { isObject, type Json, type JsonObject } from '../json.js';
import { builtinSchemas } from '../../generated/schemas.js';
import { readRules, type BatonRules } from './rules.js';

export type { BatonRules, Mirror } from './rules.js';

export type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A schema's own rules, without its validator: all a read needs (where its mirrors go). */
export interface SchemaRules {
  /** Built-in name, or the schema file's path. */
  name: string;
  schema: JsonObject;
  rules: BatonRules;
}

export interface CompiledSchema extends SchemaRules {
  /** Every issue in the document, collected (empty when valid). */
  validate(doc: Json): Issue[];
}

export const BUILTIN_SCHEMAS = Object.keys(builtinSchemas);
export const DEFAULT_SCHEMA = 'any';

/**
 * A built-in schema's rules. Its compiled validator is builtin-schemas.ts, a bundle of its own in
 * the CLI (scripts/cli-bundles.mjs): 40 KB that a read (`baton get`) never runs.
 */
export function builtinRules(name: string): SchemaRules | undefined {
  const schema = builtinSchemas[name];
  if (!schema) return undefined;
  let known = rulesOf.get(name);
  if (!known) rulesOf.set(name, (known = { name, schema, rules: readRules(schema, name) }));
  return known;
}

/**
 * Built-in rules read once per process: a library or server writing in a loop read them again on
 * every write (and twice: loadSchema asks builtinRules, then builtinSchema). Nothing changes them.
 */
const rulesOf = new Map<string, SchemaRules>();

/** A user schema's rules, without compiling it (no Ajv): what a read needs. */
export function schemaRules(name: string, schema: Json): SchemaRules {
  if (!isObject(schema))
    throw new BatonError('usage', `schema ${name} is not a JSON object; give a JSON Schema (2020-12) file`);
  return { name, schema, rules: readRules(schema, name) };
}

/** Compiles a user schema at run time; Ajv is imported only here, so built-in users never pay for it. */
export async function compileSchema(name: string, schema: Json): Promise<CompiledSchema> {
  if (!isObject(schema))
    throw new BatonError('usage', `schema ${name} is not a JSON object; give a JSON Schema (2020-12) file`);
  const [ajvModule, { ajvOptions }] = await Promise.all([import('ajv/dist/2020.js'), import('./ajv-options.mjs')]);
  // A CommonJS module imported lazily is reliably exposed only as `default` (its module.exports, the class).
  const Ajv2020 = ajvModule.default as unknown as typeof ajvModule.Ajv2020;
  const ajv = new Ajv2020(ajvOptions);
  ajv.addKeyword('x-baton');
  let validator: Validator;
  try {
    validator = ajv.compile(schema);
  } catch (error) {
    throw new BatonError('usage', `schema ${name} does not compile: ${(error as Error).message}; fix the schema file`);
  }
  return wrap(name, schema, validator);
}

export function wrap(name: string, schema: JsonObject, validator: Validator): CompiledSchema {
  const rules = readRules(schema, name);
  return {
    name,
    schema,
    rules,
    validate: (doc) => (validator(doc) ? [] : (validator.errors ?? []).map((error) => describe(error, doc))),
  };
}

/** One issue per Ajv error, naming the field, the value found and what is allowed. */
function describe(error: ErrorObject, doc: Json): Issue {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const extra = String(params.additionalProperty);
    return { path: [...segments, extra].join('.'), message: `unknown field '${extra}' is not allowed by the schema` };
  }
  if (error.keyword === 'required') {
    const missing = String(params.missingProperty);
    return { path: [...segments, missing].join('.'), message: `required field '${missing}' is missing` };
  }
  const path = segments.join('.') || '(document)';
  const value = valueAt(doc, segments);
  return { path, message: `${JSON.stringify(value)} is not allowed: ${allowed(error, params)}` };
}

function allowed(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'enum':
      return `expected one of ${(params.allowedValues as Json[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `expected ${String(params.type).replace(/,/g, ' or ')}`;
    case 'const':
      return `expected ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return `expected text matching ${String(params.pattern)}`;
    default:
      return error.message ?? error.keyword;
  }
}

function valueAt(doc: Json, segments: string[]): Json | undefined {
  let node: Json | undefined = doc;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}
