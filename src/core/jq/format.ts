import { tick } from './budget.js';
import { Raised, unsupported } from './jq-errors.js';
import type { Json } from './values.js';
import { describe, kindOf } from './values.js';

const DBL_MAX = 1.7976931348623157e308;

/**
 * jq 1.6 prints numbers with jvp_dtoa_fmt: shortest round-trip digits (same digits as JS),
 * laid out like David Gay's g_fmt with a 15-digit allowance before switching to exponent
 * form, and a two-digit minimum exponent (1e-07, 1e+21). Infinities clamp to DBL_MAX.
 */
function formatNumber(d: number): string {
  if (d !== d) return 'null';
  if (d > DBL_MAX) d = DBL_MAX;
  else if (d < -DBL_MAX) d = -DBL_MAX;
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const sign = d < 0 ? '-' : '';
  const exp = Math.abs(d).toExponential();
  const eAt = exp.indexOf('e');
  const digits = exp.slice(0, eAt).replace('.', '');
  const decpt = Number(exp.slice(eAt + 1)) + 1;
  if (decpt <= -4 || decpt > digits.length + 15) {
    let out = sign + digits[0];
    if (digits.length > 1) out += '.' + digits.slice(1);
    let e = decpt - 1;
    out += e < 0 ? 'e-' : 'e+';
    e = Math.abs(e);
    out += e < 10 ? '0' + e : String(e);
    return out;
  }
  if (decpt <= 0) return sign + '0.' + '0'.repeat(-decpt) + digits;
  if (decpt >= digits.length) return sign + digits + '0'.repeat(decpt - digits.length);
  return sign + digits.slice(0, decpt) + '.' + digits.slice(decpt);
}

function escapeString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x7f) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0d:
        out += '\\r';
        break;
      default:
        out += '\\u' + c.toString(16).padStart(4, '0');
    }
  }
  return out + s.slice(start) + '"';
}

// Made once: thrown to stop a dump at its limit, so no stack is captured per cut.
const CUT = new Error('dump cut at its limit');

/**
 * jq's compact text of `v`, or its first `limit` characters or a few more (an error message
 * describes a value by its start: a huge value, or one shared by reference thousands of times,
 * must not be printed whole to say so). Each value written is a step of the running budget.
 */
export function dumpCompact(v: Json, limit = Infinity): string {
  let out = '';
  const put = (s: string): void => {
    out += s;
    if (out.length > limit) throw CUT;
  };
  const dump = (x: Json): void => {
    tick();
    if (x === null) return put('null');
    switch (typeof x) {
      case 'boolean':
        return put(x ? 'true' : 'false');
      case 'number':
        return put(formatNumber(x));
      case 'string':
        tick(x.length >> 4);
        return put(escapeString(x));
    }
    if (Array.isArray(x)) {
      put('[');
      for (let i = 0; i < x.length; i++) {
        if (i) put(',');
        dump(x[i] as Json);
      }
      return put(']');
    }
    put('{');
    let first = true;
    for (const k of Object.keys(x)) {
      tick(k.length >> 4);
      put((first ? '' : ',') + escapeString(k) + ':');
      dump(x[k] as Json);
      first = false;
    }
    put('}');
  };
  try {
    dump(v);
  } catch (e) {
    if (e !== CUT) throw e;
  }
  return out;
}

export function toText(v: Json): string {
  return typeof v === 'string' ? v : dumpCompact(v);
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

const URI_UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;

function csvCell(x: Json, tsv: boolean): string {
  if (x === null) return '';
  if (typeof x === 'boolean') return x ? 'true' : 'false';
  if (typeof x === 'number') return formatNumber(x);
  if (typeof x === 'string') {
    if (tsv)
      return x.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
    return '"' + x.replace(/"/g, '""') + '"';
  }
  throw new Raised(`${describe(x)} is not valid in a csv row`);
}

function shQuote(x: Json): string {
  if (typeof x === 'string') return "'" + x.replace(/'/g, "'\\''") + "'";
  if (Array.isArray(x) || (typeof x === 'object' && x !== null)) {
    throw new Raised(`${describe(x)} can not be escaped for shell`);
  }
  return dumpCompact(x);
}

function base64Decode(s: string): string {
  // Only the unambiguous, well-formed shape is decoded; jq 1.6's lenient decoder on odd input is not reproduced.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1) {
    throw unsupported('@base64d on input that is not canonical base64');
  }
  const bytes = Buffer.from(s, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\ufffd')) throw unsupported('@base64d producing invalid UTF-8');
  return text;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** jq 1.8's @base32d (RFC 4648), answered for canonical padded input only, like @base64d above. */
function base32Decode(s: string): string {
  const body = s.replace(/=+$/, '');
  const padding = s.length - body.length;
  if (
    !/^[A-Z2-7]*$/.test(body) ||
    s.length % 8 !== 0 ||
    ![0, 1, 3, 4, 6].includes(padding) ||
    (padding > 0 && ![7, 5, 4, 2].includes(body.length % 8))
  ) {
    throw unsupported('@base32d on input that is not canonical, padded base32');
  }
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of body) {
    acc = (acc << 5) | BASE32.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bytes));
  if (text.includes('\ufffd')) throw unsupported('@base32d producing invalid UTF-8');
  return text;
}

/** `@name` applied to one value, as jq's f_format does. */
export function applyFormat(name: string, v: Json): string {
  switch (name) {
    case 'text':
      return toText(v);
    case 'json':
      return dumpCompact(v);
    case 'html':
      return toText(v).replace(
        /[<>&'"]/g,
        (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
      );
    case 'uri': {
      let out = '';
      for (const ch of toText(v)) {
        if (URI_UNRESERVED.test(ch)) out += ch;
        else for (const b of utf8(ch)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
      }
      return out;
    }
    case 'csv':
    case 'tsv': {
      if (!Array.isArray(v)) throw new Raised(`${describe(v)} cannot be ${name}-formatted, only array`);
      return v.map((x) => csvCell(x, name === 'tsv')).join(name === 'tsv' ? '\t' : ',');
    }
    case 'sh':
      if (Array.isArray(v)) return v.map(shQuote).join(' ');
      return shQuote(v);
    case 'base64':
      return Buffer.from(utf8(toText(v))).toString('base64');
    case 'base64d':
      return base64Decode(toText(v));
    case 'base32d':
      return base32Decode(toText(v));
    default:
      throw new Raised(`${name} is not a valid format`);
  }
}

export function typeName(v: Json): string {
  return kindOf(v);
}

/** Exactly what `jq -c` prints for `value` (without the trailing newline). */
export function formatJqCompact(value: Json): string {
  return dumpCompact(value);
}

/** What `jq -r` prints: strings raw, everything else compact. */
export function formatJqRaw(value: Json): string {
  return typeof value === 'string' ? value : dumpCompact(value);
}
