import { isObject, type Json, type JsonObject } from '../json.js';

/**
 * The value `baton set FILE PATH TEXT` stores: a command line gives only text, so its type comes
 * from the document's schema at PATH, else from the value already there, else it is a string.
 * `set count 2` then stores 2 where the schema (or the current value) says a number, and "2"
 * where it says a string. Text that does not fit the type stays text, and the schema refuses it.
 */
export function typedValue(
  text: string,
  schema: JsonObject | undefined,
  segments: string[],
  current: Json | undefined,
): Json {
  const types = schema ? typesAt(schema, schema, segments) : new Set<string>();
  if (types.size === 0 && current !== undefined && current !== null)
    types.add(Array.isArray(current) ? 'array' : typeof current);
  if (types.size === 0 || types.has('string')) return text;
  if ((types.has('number') || types.has('integer')) && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text))
    return Number(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  if (types.has('object') || types.has('array')) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      return text;
    }
  }
  return text;
}

/** The JSON types a schema allows at a path (empty when it does not say). */
function typesAt(root: JsonObject, node: Json | undefined, segments: string[]): Set<string> {
  const schema = resolve(root, node);
  if (!schema) return new Set();
  const alternatives = [...list(schema.anyOf), ...list(schema.oneOf), ...list(schema.allOf)];
  if (segments.length === 0) {
    const types = new Set<string>();
    const declared = schema.type;
    for (const type of Array.isArray(declared) ? declared : declared !== undefined ? [declared] : [])
      if (typeof type === 'string') types.add(type);
    for (const value of [...list(schema.enum), ...('const' in schema ? [schema.const] : [])])
      types.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
    for (const alternative of alternatives) for (const type of typesAt(root, alternative, [])) types.add(type);
    return types;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  const children: Json[] = [];
  const properties = schema.properties;
  if (isObject(properties) && head in properties) children.push(properties[head] as Json);
  else if (/^\d+$/.test(head) && (schema.items !== undefined || schema.prefixItems !== undefined)) {
    const prefix = list(schema.prefixItems);
    children.push(Number(head) < prefix.length ? (prefix[Number(head)] as Json) : (schema.items as Json));
  } else {
    if (isObject(schema.patternProperties)) {
      for (const [pattern, child] of Object.entries(schema.patternProperties))
        if (safeTest(pattern, head)) children.push(child);
    }
    if (children.length === 0 && isObject(schema.additionalProperties)) children.push(schema.additionalProperties);
  }
  const found = [
    ...children.map((child) => typesAt(root, child, rest)),
    ...alternatives.map((alternative) => typesAt(root, alternative, segments)),
  ];
  return new Set(found.flatMap((types) => [...types]));
}

function resolve(root: JsonObject, node: Json | undefined): JsonObject | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 16; hops++) {
    if (!current.$ref.startsWith('#/')) return undefined;
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>(
        (at, key) => (isObject(at) ? at[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined),
        root,
      );
  }
  return isObject(current) ? current : undefined;
}

function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

function safeTest(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key);
  } catch {
    return false;
  }
}
