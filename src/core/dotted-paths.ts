/**
 * Dotted paths for callers who do not want jq: `phases.3-impl.evidence`. A segment is a key; on an
 * array a segment of digits is an index, also written `[N]` (`arr[0]`). `\.` escapes a dot inside a key.
 */
import { BatonError } from './errors.js';
import { isObject, type Json } from './json.js';
import { DEFAULT_LIMITS } from './limits.js';

/** Segments of a path naming a field; the document itself (`''`, `.`) is not a field. */
export function parsePath(text: string): string[] {
  // `arr[0].name` is read as `arr.0.name`: an index into an array, as jq writes it.
  const path = text.replace(/(?<!\\)\[(\d+)\]/g, '.$1');
  if (path === '' || path === '.') {
    throw new BatonError(
      'usage',
      `path ${JSON.stringify(path)} names no field; write paths like phases.3-impl.evidence`,
    );
  }
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    if (char === '\\' && path[i + 1] === '.') {
      current += '.';
      i++;
    } else if (char === '.') {
      segments.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  segments.push(current);
  if (segments.some((segment) => segment === '')) {
    throw new BatonError('usage', `invalid path '${path}': empty segment; write paths like phases.3-impl.evidence`);
  }
  return segments;
}

export function getAt(doc: Json, segments: string[]): Json | undefined {
  let node: Json | undefined = doc;
  for (const segment of segments) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Returns a copy of `doc` with the value at `segments` replaced, creating objects on the way. */
export function setAt(
  doc: Json,
  segments: string[],
  value: Json,
  label: string,
  maxDocumentBytes = DEFAULT_LIMITS.maxDocumentBytes,
): Json {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(doc) && /^\d+$/.test(head)) {
    const copy = [...doc];
    const index = Number(head);
    // Refused before the nulls it pads with are allocated: `arr.20000000` would be a 100 MB file.
    if ((index - copy.length) * 5 > maxDocumentBytes) {
      throw new BatonError(
        'too_large',
        `cannot set ${label}: index ${head} would pad the array past the ${maxDocumentBytes}-byte document limit (maxDocumentBytes); use 'baton append' to add an item`,
      );
    }
    while (copy.length < index) copy.push(null);
    copy[index] = setAt(copy[index] ?? null, rest, value, label, maxDocumentBytes);
    return copy;
  }
  if (doc === null || isObject(doc)) {
    const base = doc ?? {};
    return { ...base, [head]: setAt(base[head] ?? null, rest, value, label, maxDocumentBytes) };
  }
  throw new BatonError(
    'invalid',
    `cannot set ${label}: '${head}' is inside a ${Array.isArray(doc) ? 'array (use a numeric index)' : typeof doc}, not an object`,
  );
}
