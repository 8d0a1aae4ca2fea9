/**
 * Word expansion as bash does it, as far as a static reading can go: variables the command set
 * itself, `~`, `$PWD`, brace expansion, then globs against the real tree. Whatever depends on
 * running something (a `$(...)`, a variable from the environment, `$RANDOM`) stays an unknown
 * piece that names its construct, so the policy can fail closed on it.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Word, WordPart } from './ast.js';

const MAX_FIELDS = 256;
const MAX_GLOB_MATCHES = 512;
const MAX_BRACE_GROUPS = 32;

/** What the shell knows at a point of the command: candidate values (undefined = cannot tell). */
export interface Env {
  cwd: string[] | undefined;
  vars: Map<string, string[] | undefined>;
  home: string;
  /** Symlinks made earlier in the same command (`ln -s`): absolute link -> absolute target. */
  links: Map<string, string>;
  dirs: string[][];
}

export function cloneEnv(env: Env): Env {
  return { cwd: env.cwd, vars: new Map(env.vars), home: env.home, links: env.links, dirs: [...env.dirs] };
}

/** One character of an expanded word: quoted characters never glob or brace-expand. */
type Piece = { c: string; q: boolean } | { unknown: string };

/** One field of a word after expansion: its text, or the first construct baton cannot resolve. */
export interface Field {
  text: string;
  /** Set when part of the field is unknown; `text` then holds `*` in its place. */
  unknown?: string;
  /** Unquoted glob characters present (`*`, `?`, `[`). */
  glob: boolean;
  /** Pieces kept for glob matching (quoted flags). */
  pieces: Piece[];
}

export function expandWord(word: Word, env: Env): Field[] {
  let variants: Piece[][] = [[]];
  const add = (pieces: Piece[][]) => {
    const next: Piece[][] = [];
    for (const base of variants) for (const more of pieces) next.push([...base, ...more]);
    variants = next.length > MAX_FIELDS ? [[{ unknown: `more than ${MAX_FIELDS} expansions` }]] : next;
  };
  for (const part of word.parts) add(partPieces(part, env, false));
  const fields: Field[] = [];
  for (const variant of variants) {
    if (variant.filter((p) => 'c' in p && p.c === '{' && !p.q).length > MAX_BRACE_GROUPS)
      return [
        { text: '*', unknown: `more than ${MAX_BRACE_GROUPS} brace groups in one word`, glob: false, pieces: [] },
      ];
    for (const braced of braces(tilde(variant, env.home))) {
      fields.push(toField(braced));
      if (fields.length > MAX_FIELDS)
        return [{ text: '*', unknown: `brace expansion past ${MAX_FIELDS} words`, glob: false, pieces: [] }];
    }
  }
  return fields;
}

/** The literal text of a word when it has no expansions at all (quotes removed), else undefined. */
export function literal(word: Word): string | undefined {
  let text = '';
  for (const part of word.parts) {
    if (part.type === 'lit' || part.type === 'quoted') text += part.value;
    else if (part.type === 'dquote' && part.parts.every((p) => p.type === 'quoted'))
      text += part.parts.map((p) => (p.type === 'quoted' ? p.value : '')).join('');
    else return undefined;
  }
  return text;
}

function chars(text: string, q: boolean): Piece[] {
  return [...text].map((c) => ({ c, q }));
}

function partPieces(part: WordPart, env: Env, quoted: boolean): Piece[][] {
  switch (part.type) {
    case 'lit':
      return [chars(part.value, quoted)];
    case 'quoted':
      return [chars(part.value, true)];
    case 'extglob':
      return [chars(part.value, quoted)];
    case 'dquote': {
      let out: Piece[][] = [[]];
      for (const inner of part.parts) {
        const next: Piece[][] = [];
        for (const base of out) for (const more of partPieces(inner, env, true)) next.push([...base, ...more]);
        out = next.length > MAX_FIELDS ? [[{ unknown: `more than ${MAX_FIELDS} expansions` }]] : next;
      }
      return out;
    }
    case 'param':
      return paramPieces(part, env, quoted);
    case 'command':
      return [[{ unknown: 'command substitution $(...)' }]];
    case 'arith':
      return [[{ unknown: 'arithmetic expansion $((...))' }]];
    case 'process':
      return [[{ unknown: 'process substitution <(...)' }]];
  }
}

function paramPieces(part: Extract<WordPart, { type: 'param' }>, env: Env, quoted: boolean): Piece[][] {
  const values = paramValues(part.name, env);
  const unknown = [[{ unknown: `variable $${part.name || '{...}'}` } as Piece]];
  if (part.op === '') return values ? values.map((v) => chars(v, quoted)) : unknown;
  if (part.op === ':-' || part.op === '-') {
    if (values && values.every((v) => v !== '')) return values.map((v) => chars(v, quoted));
    if (values && part.arg)
      return values.flatMap((v) => (v === '' ? partsPieces(part.arg?.parts ?? [], env, quoted) : [chars(v, quoted)]));
    // Unknown: the value from the environment, or the default.
    if (!values && part.arg) return [...unknown, ...partsPieces(part.arg.parts, env, quoted)];
  }
  return unknown;
}

function partsPieces(parts: WordPart[], env: Env, quoted: boolean): Piece[][] {
  let out: Piece[][] = [[]];
  for (const part of parts) {
    const next: Piece[][] = [];
    for (const base of out) for (const more of partPieces(part, env, quoted)) next.push([...base, ...more]);
    out = next.slice(0, MAX_FIELDS);
  }
  return out;
}

function paramValues(name: string, env: Env): string[] | undefined {
  if (env.vars.has(name)) return env.vars.get(name);
  if (name === 'PWD') return env.cwd;
  if (name === 'HOME') return [env.home];
  return undefined;
}

function tilde(pieces: Piece[], home: string): Piece[] {
  const first = pieces[0];
  if (!first || 'unknown' in first || first.c !== '~' || first.q) return pieces;
  const second = pieces[1];
  if (second && ('unknown' in second || second.c !== '/')) return pieces;
  return [...chars(home, true), ...pieces.slice(1)];
}

/** Bash brace expansion: `{a,b}` and `{1..3}` sequences, nested, on unquoted braces only. */
function braces(pieces: Piece[]): Piece[][] {
  const isChar = (p: Piece | undefined, c: string) => p !== undefined && !('unknown' in p) && !p.q && p.c === c;
  for (let open = 0; open < pieces.length; open++) {
    if (!isChar(pieces[open], '{')) continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < pieces.length; i++) {
      if (isChar(pieces[i], '{')) depth++;
      else if (isChar(pieces[i], '}')) {
        depth--;
        if (depth === 0) {
          close = i;
          break;
        }
      } else if (depth === 1 && isChar(pieces[i], ',')) commas.push(i);
    }
    if (close < 0) return [pieces];
    const head = pieces.slice(0, open);
    const tail = pieces.slice(close + 1);
    let alternatives: Piece[][];
    if (commas.length > 0) {
      const bounds = [open, ...commas, close];
      alternatives = bounds.slice(0, -1).map((b, i) => pieces.slice(b + 1, bounds[i + 1]));
    } else {
      const body = pieces.slice(open + 1, close);
      const seq = body.every((p) => !('unknown' in p))
        ? sequence(body.map((p) => ('c' in p ? p.c : '')).join(''))
        : undefined;
      if (!seq) continue;
      alternatives = seq.map((s) => chars(s, true));
    }
    const out: Piece[][] = [];
    for (const alt of alternatives) {
      for (const expanded of braces([...head, ...alt, ...tail])) {
        out.push(expanded);
        if (out.length > MAX_FIELDS) return out;
      }
    }
    return out;
  }
  return [pieces];
}

function sequence(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const numeric = /\d/.test(m[1] ?? '');
  const from = numeric ? Number(m[1]) : (m[1] ?? 'a').charCodeAt(0);
  const to = numeric ? Number(m[2]) : (m[2] ?? 'a').charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1)));
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (out.length > MAX_FIELDS) break;
  }
  return out;
}

function toField(pieces: Piece[]): Field {
  let text = '';
  let unknown: string | undefined;
  let glob = false;
  for (const p of pieces) {
    if ('unknown' in p) {
      unknown ??= p.unknown;
      text += '*';
    } else {
      text += p.c;
      if (!p.q && (p.c === '*' || p.c === '?' || p.c === '[')) glob = true;
    }
  }
  return { text, glob, pieces, ...(unknown ? { unknown } : {}) };
}

/**
 * The absolute paths a field names from `cwd`: a glob is matched against the real tree one
 * component at a time (a component that matches nothing stays literal, as bash leaves it).
 * Returns undefined past the match bound.
 */
export function globPaths(field: Field, cwd: string): string[] | undefined {
  const absolute = isAbsolute(field.text);
  if (!field.glob) return [absolute ? resolve(field.text) : resolve(cwd, field.text)];
  const components = splitPieces(field.pieces);
  let bases = [absolute ? '/' : cwd];
  for (const component of components) {
    const text = component.map((p) => ('c' in p ? p.c : '*')).join('');
    if (text === '' || text === '.') continue;
    const re = component.some((p) => 'c' in p && !p.q && '*?['.includes(p.c)) ? componentRegExp(component) : undefined;
    const next: string[] = [];
    for (const base of bases) {
      const matches = re ? listDir(base).filter((name) => re.test(name) && (name[0] !== '.' || text[0] === '.')) : [];
      if (matches.length === 0) next.push(join(base, text));
      else for (const name of matches) next.push(join(base, name));
      if (next.length > MAX_GLOB_MATCHES) return undefined;
    }
    bases = next;
  }
  return bases.map((p) => resolve(p));
}

function splitPieces(pieces: Piece[]): Piece[][] {
  const out: Piece[][] = [[]];
  for (const p of pieces) {
    if ('c' in p && p.c === '/') out.push([]);
    else out[out.length - 1]?.push(p);
  }
  return out;
}

function componentRegExp(component: Piece[]): RegExp {
  let source = '';
  for (let i = 0; i < component.length; i++) {
    const p = component[i] as Piece;
    if (!('c' in p)) source += '.*';
    else if (p.q) source += p.c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (p.c === '*') source += '.*';
    else if (p.c === '?') source += '.';
    else if (p.c === '[') {
      let end = i + 1;
      if (
        component[end] &&
        'c' in (component[end] as Piece) &&
        ['!', '^'].includes((component[end] as { c: string }).c)
      )
        end++;
      end++;
      while (
        end < component.length &&
        !('c' in (component[end] as Piece) && (component[end] as { c: string }).c === ']')
      )
        end++;
      if (end >= component.length) source += '\\[';
      else {
        const body = component
          .slice(i + 1, end)
          .map((x) => ('c' in x ? x.c : ''))
          .join('')
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else source += p.c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
