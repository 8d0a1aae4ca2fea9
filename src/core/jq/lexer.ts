import { syntaxError, unsupported } from './jq-errors.js';

export type TokKind = 'num' | 'str' | 'ident' | 'field' | 'var' | 'format' | 'kw' | 'op' | 'eof';

/** A string literal: text pieces alternating with token lists of `\(...)` interpolations. */
export type StrPart = string | Token[];

export interface Token {
  kind: TokKind;
  value: string;
  pos: number; // 0-based offset into the program
  num?: number;
  parts?: StrPart[];
}

const KEYWORDS = new Set([
  'as',
  'def',
  'if',
  'then',
  'elif',
  'else',
  'end',
  'and',
  'or',
  'reduce',
  'foreach',
  'try',
  'catch',
  'label',
  'import',
  'include',
  'module',
  '__loc__',
  'break',
]);

// Longest first so `//=` wins over `//` and `/`.
const OPS = [
  '?//',
  '|=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '//=',
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '..',
  '.',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  ',',
  ':',
  ';',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '$',
  '?',
];
const OPS_SORTED = [...OPS].sort((a, b) => b.length - a.length);

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z_0-9]/;
const NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

export function tokenize(src: string): Token[] {
  const [toks] = lexUntil(src, 0, false);
  return toks;
}

/** Lexes from `pos`; with `inInterp`, stops at the `)` closing a `\(` and returns its end. */
function lexUntil(src: string, pos: number, inInterp: boolean): [Token[], number] {
  const toks: Token[] = [];
  let depth = 0;
  let i = pos;
  for (;;) {
    while (i < src.length) {
      const c = src[i] as string;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
      else break;
    }
    if (i >= src.length) {
      if (inInterp) throw syntaxError(`syntax error: unterminated string interpolation at column ${pos}`, pos);
      toks.push({ kind: 'eof', value: '$end', pos: i });
      return [toks, i];
    }
    const c = src[i] as string;
    const start = i;
    if (c === '"') {
      const [parts, end] = lexString(src, i + 1);
      toks.push({ kind: 'str', value: src.slice(start, end), pos: start, parts });
      i = end;
      continue;
    }
    const numMatch =
      (c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(src[i + 1] ?? '')) ? NUMBER.exec(src.slice(i)) : null;
    if (numMatch) {
      toks.push({ kind: 'num', value: numMatch[0], pos: start, num: Number(numMatch[0]) });
      i += numMatch[0].length;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < src.length && IDENT_CHAR.test(src[j] as string)) j++;
      if (src.startsWith('::', j)) throw unsupported('module-qualified names (`::`)', start);
      const word = src.slice(i, j);
      toks.push({ kind: KEYWORDS.has(word) ? 'kw' : 'ident', value: word, pos: start });
      i = j;
      continue;
    }
    if (c === '.' && IDENT_START.test(src[i + 1] ?? '')) {
      let j = i + 2;
      while (j < src.length && IDENT_CHAR.test(src[j] as string)) j++;
      toks.push({ kind: 'field', value: src.slice(i + 1, j), pos: start });
      i = j;
      continue;
    }
    if (c === '@' && IDENT_START.test(src[i + 1] ?? '')) {
      let j = i + 2;
      while (j < src.length && IDENT_CHAR.test(src[j] as string)) j++;
      toks.push({ kind: 'format', value: src.slice(i + 1, j), pos: start });
      i = j;
      continue;
    }
    if (c === '$' && src.startsWith('__loc__', i + 1) && !IDENT_CHAR.test(src[i + 8] ?? '')) {
      toks.push({ kind: 'var', value: '__loc__', pos: start });
      i += 8;
      continue;
    }
    if (c === '$' && IDENT_START.test(src[i + 1] ?? '')) {
      let j = i + 2;
      while (j < src.length && IDENT_CHAR.test(src[j] as string)) j++;
      const word = src.slice(i + 1, j);
      if (KEYWORDS.has(word)) throw unsupported(`variable named like keyword $${word}`, start);
      toks.push({ kind: 'var', value: word, pos: start });
      i = j;
      continue;
    }
    const op = OPS_SORTED.find((o) => src.startsWith(o, i));
    if (!op) throw syntaxError(`syntax error: unexpected character '${c}' at column ${start + 1}`, start);
    if (op === '?//') throw unsupported('destructuring alternative `?//`', start);
    if (op === '$') throw unsupported('`$` followed by whitespace', start);
    if (inInterp) {
      if (op === '(') depth++;
      else if (op === ')') {
        if (depth === 0) {
          toks.push({ kind: 'eof', value: '$end', pos: i });
          return [toks, i + 1];
        }
        depth--;
      }
    }
    toks.push({ kind: 'op', value: op, pos: start });
    i += op.length;
  }
}

function lexString(src: string, pos: number): [StrPart[], number] {
  const parts: StrPart[] = [];
  let buf = '';
  let i = pos;
  for (;;) {
    if (i >= src.length) throw syntaxError(`syntax error: unterminated string starting at column ${pos}`, pos - 1);
    const c = src[i] as string;
    if (c === '"') {
      parts.push(buf);
      return [parts, i + 1];
    }
    if (c !== '\\') {
      buf += c;
      i++;
      continue;
    }
    const e = src[i + 1];
    const simple: Record<string, string> = {
      '"': '"',
      '\\': '\\',
      '/': '/',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
    };
    if (e !== undefined && simple[e] !== undefined) {
      buf += simple[e];
      i += 2;
    } else if (e === 'u') {
      const hex = src.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw syntaxError(`Invalid escape at column ${i + 1}`, i);
      const cu = parseInt(hex, 16);
      i += 6;
      if (cu >= 0xd800 && cu <= 0xdbff) {
        const m = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(src.slice(i));
        if (!m) throw syntaxError(`Invalid \\uXXXX\\uXXXX surrogate pair escape at column ${i}`, i);
        buf += String.fromCharCode(cu, parseInt(m[1] as string, 16));
        i += 6;
      } else if (cu >= 0xdc00 && cu <= 0xdfff) {
        throw syntaxError(`Invalid \\uXXXX\\uXXXX surrogate pair escape at column ${i}`, i);
      } else buf += String.fromCharCode(cu);
    } else if (e === '(') {
      parts.push(buf);
      buf = '';
      const [toks, end] = lexUntil(src, i + 2, true);
      parts.push(toks);
      i = end;
    } else {
      throw syntaxError(`Invalid escape at column ${i + 2}`, i);
    }
  }
}
