/**
 * The pure heart of every write: given the committed document and a candidate produced by an
 * operation, decide what gets committed. Order matters: coerce, check
 * immutables and ownership against what the caller changed, stamp last (so an expression cannot
 * fake or suppress it), check sizes, validate the whole document, then diff.
 */
import { isoSeconds, isoString } from './iso-time.js';
import { BatonError, type Issue } from './errors.js';
import { deepEqual, isObject, typeName, type Json, type JsonObject } from './json.js';
import { diff, type PatchOp } from './patch.js';
import { checkShape, DEFAULT_LIMITS, type Limits } from './limits.js';
import type { CompiledSchema } from './schema/schema.js';
import { writerMatches } from './schema/rules.js';

const DEFAULT_MAX_VALUE_BYTES = 64 * 1024;

export interface WriteContext {
  schema: CompiledSchema;
  writer?: string;
  now: Date;
  /** Largest string value accepted, in bytes (schema `maxValueBytes` wins over this). */
  maxValueBytes?: number;
  /** The baton operation writing (`phase`, `run.init`); sealed fields change only through theirs. */
  operation?: string;
  /** Depth and size bounds of the whole document (default DEFAULT_LIMITS). */
  limits?: Pick<Limits, 'maxDepth' | 'maxDocumentBytes'>;
  /** Who really runs the command, when a sandbox says so: a claimed writer must be them for owned fields. */
  identity?: { agent: string; session?: string };
}

export interface Commit {
  doc: JsonObject;
  patch: PatchOp[];
  /** Remarks for stderr, such as a coerced field. */
  notes: string[];
}

export function stampText(now: Date, format: 'seconds' | 'millis'): string {
  return format === 'millis' ? isoString(now) : isoSeconds(now);
}

/** The single JSON object an update must produce, or a clear refusal. */
export function singleObject(results: Json[], what: string): JsonObject {
  const [first] = results;
  if (results.length === 1 && isObject(first)) return first;
  const kinds = results.length === 0 ? 'no result' : `${results.length} result(s): ${results.map(typeName).join(', ')}`;
  throw new BatonError(
    'jq_result',
    `${what} must produce exactly one object, it produced ${kinds}; nothing was written`,
  );
}

export function prepareWrite(current: JsonObject | undefined, candidate: JsonObject, context: WriteContext): Commit {
  // First: every later step walks the document recursively, which a too-deep one would overflow.
  checkShape(candidate, context.limits ?? DEFAULT_LIMITS, 'the document');
  const { rules } = context.schema;
  checkOperation(context);
  const notes: string[] = [];
  const doc = rules.coerceIntegers ? coerceIntegers(candidate, context.schema, notes) : candidate;
  // Creation is governed by `create`; field owners govern changes to an existing document.
  if (current) {
    checkImmutable(current, doc, rules.immutable);
    checkOwners(current, doc, context);
  }
  checkSealed(current, doc, context);
  if (rules.stamp) doc[rules.stamp] = stampText(context.now, rules.stampFormat);
  checkSizes(current, doc, rules.maxValueBytes ?? context.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES);
  const issues = context.schema.validate(doc);
  if (issues.length > 0) throw invalid(issues, context.schema.name);
  return { doc, patch: diff(current, doc), notes };
}

export function checkLifecycle(kind: 'create' | 'delete', context: WriteContext): void {
  const allowed = context.schema.rules[kind];
  if (!allowed || allowed.length === 0) return;
  checkClaim(context, `${kind} this document`);
  if (writerMatches(context.writer, allowed)) return;
  throw new BatonError(
    'forbidden',
    `writer ${context.writer ?? '(anonymous)'} may not ${kind} this document; allowed: ${allowed.join(', ')} (pass --as WRITER)`,
  );
}

/**
 * Replacing a document (`init --force`) is governed by the rules of the document being replaced,
 * checked with its own schema: who may create and delete it, its field owners and its sealed
 * fields. Otherwise a new schema named on the command line would escape them all.
 */
export function checkReplace(old: JsonObject, candidate: JsonObject, oldContext: WriteContext): void {
  checkLifecycle('delete', oldContext);
  checkLifecycle('create', oldContext);
  checkOwners(old, candidate, oldContext);
  checkSealed(old, candidate, oldContext);
}

/** Sealed fields change only through their operations; on creation, setting one is a change. */
function checkSealed(current: JsonObject | undefined, doc: JsonObject, context: WriteContext): void {
  for (const [field, operations] of Object.entries(context.schema.rules.sealed)) {
    const changed = current ? !deepEqual(current[field], doc[field]) : doc[field] !== undefined;
    if (changed && (context.operation === undefined || !operations.includes(context.operation))) {
      throw new BatonError(
        'forbidden',
        `field ${field} changes only through ${operations.map(operationText).join(' or ')}; this write was not made by one, nothing was written`,
      );
    }
  }
}

/**
 * An operation works only on documents whose schema names it: `baton phase` or `baton gate` on a
 * document made some other way (say, cleared and re-created by a plain init with a laxer schema,
 * its phases written by hand) is refused, so the sealed fields cannot be forged by a detour.
 */
function checkOperation(context: WriteContext): void {
  const { operation, schema } = context;
  if (
    operation === undefined ||
    Object.values(schema.rules.sealed).some((operations) => operations.includes(operation))
  )
    return;
  throw new BatonError(
    'forbidden',
    `${operationText(operation)} works only on documents whose schema names it, and this one's schema (${schema.name}) does not; start it again with 'baton run init'`,
  );
}

/** `run.init` -> `baton run init`: operations are named after the commands that perform them. */
function operationText(operation: string): string {
  return `'baton ${operation.replace('.', ' ')}'`;
}

function coerceIntegers(doc: JsonObject, schema: CompiledSchema, notes: string[]): JsonObject {
  const properties = schema.schema.properties;
  if (!isObject(properties)) return doc;
  const out = { ...doc };
  for (const [field, value] of Object.entries(doc)) {
    const spec = properties[field];
    const types = isObject(spec) ? spec.type : undefined;
    const integer = types === 'integer' || (Array.isArray(types) && types.includes('integer'));
    if (integer && typeof value === 'string' && /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) {
      out[field] = Number(value);
      notes.push(`stored ${field} as a number; pass it with --argjson (json:) to keep it typed`);
    }
  }
  return out;
}

function checkImmutable(current: JsonObject, doc: JsonObject, immutable: string[]): void {
  for (const field of immutable) {
    if (field in current && !deepEqual(current[field], doc[field])) {
      throw new BatonError(
        'invalid',
        `field ${field} is immutable: it is ${JSON.stringify(current[field])} and cannot become ${JSON.stringify(doc[field] ?? null)}; re-run init with --force to start a new document`,
      );
    }
  }
}

function checkOwners(current: JsonObject, doc: JsonObject, context: WriteContext): void {
  for (const [field, owners] of Object.entries(context.schema.rules.owners)) {
    const changed = !deepEqual(current[field], doc[field]);
    if (changed) checkClaim(context, `change field ${field}`);
    if (changed && !writerMatches(context.writer, owners)) {
      throw new BatonError(
        'forbidden',
        `writer ${context.writer ?? '(anonymous)'} may not change field ${field}; its owners are ${owners.join(', ')} (pass --as with one of them)`,
      );
    }
  }
}

/**
 * Owners and lifecycle rules trust the writer's name; when a sandbox names the agent really
 * running (project/identity.ts), a name it claims that is neither that agent nor its session is
 * refused, so `--as orchestrator` from a subagent does not make it the orchestrator.
 */
function checkClaim(context: WriteContext, what: string): void {
  const { identity, writer } = context;
  if (!identity || writer === undefined || writer === identity.agent || writer === identity.session) return;
  throw new BatonError(
    'forbidden',
    `writer ${writer} is claimed, but this command runs as agent ${identity.agent} (the sandbox's identity), which may not ${what} as another; nothing was written: drop --as and BATON_WRITER`,
  );
}

function checkSizes(current: JsonObject | undefined, doc: JsonObject, limit: number): void {
  for (const [field, value] of Object.entries(doc)) {
    if (current && deepEqual(current[field], value)) continue;
    const big = findLarge(value, field, limit);
    if (big) {
      throw new BatonError(
        'too_large',
        `value at ${big.path} is ${big.bytes} bytes, over the ${limit}-byte limit; store the content in a file and record its path instead`,
      );
    }
  }
}

function findLarge(value: Json, path: string, limit: number): { path: string; bytes: number } | undefined {
  if (typeof value === 'string') {
    // A UTF-16 unit is at most 3 bytes of UTF-8: a string short of a third of the limit needs no
    // count, and a write of short values then never compiles Node's Buffer.byteLength.
    if (value.length * 3 <= limit) return undefined;
    const bytes = Buffer.byteLength(value);
    return bytes > limit ? { path, bytes } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findLarge(value[i] as Json, `${path}.${i}`, limit);
      if (found) return found;
    }
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = findLarge(item, `${path}.${key}`, limit);
      if (found) return found;
    }
  }
  return undefined;
}

function invalid(issues: Issue[], schemaName: string): BatonError {
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return new BatonError('invalid', `schema ${schemaName} refuses the write: ${summary}; nothing was written`, {
    issues,
  });
}

/** A new document from the schema's defaults (in the schema's key order) plus the given values. */
export function initialDocument(schema: CompiledSchema, values: JsonObject, now: Date): JsonObject {
  const doc: JsonObject = {};
  const properties = isObject(schema.schema.properties) ? schema.schema.properties : {};
  for (const [field, spec] of Object.entries(properties)) {
    if (!isObject(spec) || !('default' in spec)) continue;
    const fallback = spec.default;
    doc[field] = fallback === '$now' ? stampText(now, schema.rules.stampFormat) : structuredClone(fallback);
  }
  return Object.assign(doc, values);
}
