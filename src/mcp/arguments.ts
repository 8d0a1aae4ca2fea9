/**
 * The check of a tool call's arguments against the schema the client is shown. Ajv is the one the
 * MCP SDK already loads (no cost to the server's start); its own messages ("data/limit must be
 * integer", "must NOT have additional properties") name neither the argument nor what was given,
 * so each error is put in the agent's terms: which argument, what was expected, what was given.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { BatonError } from '../core/errors.js';

export interface ToolSchema {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties: false;
}

type Check = (args: Record<string, unknown>) => void;

const ajv = new Ajv({ strict: false });

/** A checker for one tool: throws a one-line `usage` error naming the first bad argument. */
export function argumentCheck(tool: string, schema: ToolSchema): Check {
  const validate = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return;
    const error = (validate.errors ?? [])[0];
    const why = error ? describe(error, schema, args) : 'they do not match its schema';
    throw new BatonError('usage', `bad arguments for ${tool}: ${why}`);
  };
}

function describe(error: ErrorObject, schema: ToolSchema, args: Record<string, unknown>): string {
  const names = Object.keys(schema.properties).join(', ');
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty);
    return `argument '${name}' is missing (expected ${expected(schema.properties[name] ?? {})})`;
  }
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty);
    return `unknown argument '${name}' (the arguments are ${names})`;
  }
  const path = error.instancePath.split('/').slice(1);
  const name = path.map((part, i) => (i > 0 && /^\d+$/.test(part) ? `[${part}]` : i > 0 ? `.${part}` : part)).join('');
  const given = path.reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], args);
  return `argument '${name || 'arguments'}' ${want(error)}, got ${shown(given)}`;
}

/** What a property's schema accepts, in words. */
function expected(property: object): string {
  const p = property as { type?: string; enum?: unknown[]; items?: { type?: string } };
  if (p.enum) return `one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (p.type === 'array') return `an array${p.items?.type ? ` of ${p.items.type}s` : ''}`;
  return p.type ? article(p.type) : 'any JSON value';
}

/** What the failing keyword asked for ("must be ..."). */
function want(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const expected = wanted(error.keyword, params);
  // Ajv's own words for the rest: "must NOT have more than 3 items".
  return expected === undefined ? (error.message ?? 'is not valid') : `must be ${expected}`;
}

function wanted(keyword: string, params: Record<string, unknown>): string | undefined {
  switch (keyword) {
    case 'type':
      return article(String(params.type));
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minimum':
    case 'maximum':
      return `${keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`;
    case 'minLength':
      return Number(params.limit) === 1 ? 'a non-empty string' : `at least ${String(params.limit)} characters`;
    case 'pattern':
      return `a string matching ${String(params.pattern)}`;
    default:
      return undefined;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}
