/**
 * RFC 6902 JSON Patch, the subset history needs: diff produces add/remove/replace, apply replays
 * them. Hand-written because fast-json-patch measured ~6 ms to load per process here, a tenth of a
 * hook's whole budget, for two functions of a few dozen lines.
 */
import { BatonError } from './errors.js';
import { deepEqual, isObject, type Json } from './json.js';

export type PatchOp =
  | { op: 'add'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: Json };

export function diff(before: Json | undefined, after: Json | undefined, path = ''): PatchOp[] {
  if (after === undefined) return before === undefined ? [] : [{ op: 'remove', path }];
  if (before === undefined) return [{ op: 'add', path, value: after }];
  if (isObject(before) && isObject(after)) return diffObjects(before, after, path);
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, i) => diff(item, after[i], `${path}/${i}`));
  }
  return deepEqual(before, after) ? [] : [{ op: 'replace', path, value: after }];
}

function diffObjects(before: Record<string, Json>, after: Record<string, Json>, path: string): PatchOp[] {
  const ops: PatchOp[] = [];
  for (const key of Object.keys(before)) {
    if (!(key in after)) ops.push({ op: 'remove', path: `${path}/${escape(key)}` });
  }
  for (const [key, value] of Object.entries(after)) {
    ops.push(...diff(key in before ? before[key] : undefined, value, `${path}/${escape(key)}`));
  }
  // Key order is part of the file's bytes; when it changed, replace the object whole.
  const kept = Object.keys(before).filter((key) => key in after);
  const order = Object.keys(after).filter((key) => key in before);
  if (kept.join('\u0000') !== order.join('\u0000')) return [{ op: 'replace', path, value: after }];
  return ops;
}

export function applyPatch(doc: Json | undefined, ops: PatchOp[]): Json | undefined {
  let result = doc;
  for (const op of ops) result = applyOne(result, op);
  return result;
}

function applyOne(doc: Json | undefined, op: PatchOp): Json | undefined {
  const tokens = op.path === '' ? [] : op.path.split('/').slice(1).map(unescape);
  if (tokens.length === 0) return op.op === 'remove' ? undefined : structuredClone(op.value);
  const root = structuredClone(doc);
  let parent: Json | undefined = root;
  for (const token of tokens.slice(0, -1)) parent = child(parent, token, op.path);
  const last = tokens[tokens.length - 1] as string;
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (op.op === 'remove') parent.splice(index, 1);
    else if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
    else parent[index] = structuredClone(op.value);
  } else if (isObject(parent)) {
    if (op.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(op.value);
  } else {
    throw new BatonError('corrupt', `history patch path ${op.path} does not fit the document; run 'baton doctor'`);
  }
  return root;
}

function child(node: Json | undefined, token: string, path: string): Json | undefined {
  if (Array.isArray(node)) return node[Number(token)];
  if (isObject(node)) return node[token];
  throw new BatonError('corrupt', `history patch path ${path} does not fit the document; run 'baton doctor'`);
}

// replaceAll of a string, not a regex: every write escapes the keys of its patch (core/ascii.ts says why)
const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
const unescape = (token: string): string => token.replaceAll('~1', '/').replaceAll('~0', '~');
