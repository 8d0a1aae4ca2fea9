import { Raised, unsupported } from './errors.js';
import type { Json, JsonObject } from './values.js';
import { describe } from './values.js';

/**
 * jq 1.6 uses Oniguruma (Perl_NT syntax). We translate a pattern to a JS RegExp only when the
 * two engines provably agree on it; anything else is refused rather than approximated.
 */
interface Translated {
  source: string;
  names: (string | null)[]; // per capture group, in order
  asciiOnly: boolean; // uses \d \w \s (Unicode-aware in Oniguruma) or case folding
  anchors: boolean;
}

const LITERAL_ESCAPES = new Set(['.', '\\', '/', '-', '[', ']', '(', ')', '{', '}', '*', '+', '?', '|', '^', '$']);
const CLASS_ESCAPES = new Set(['d', 'w', 's', 'D', 'W', 'S']);

function refuse(what: string): never {
  throw unsupported(`regex ${what}`);
}

function translate(re: string): Translated {
  const names: (string | null)[] = [];
  let out = '';
  let asciiOnly = false;
  let anchors = false;
  // Stack of open groups: whether each contains a capture, for the "capture inside a repeat" check.
  const groups: { captures: boolean }[] = [];
  let lastAtom: 'none' | 'atom' | 'group-with-capture' | 'quant' = 'none';
  let i = 0;
  const escapeChar = (c: string): string => (/[\^$\\.*+?()[\]{}|/]/.test(c) ? '\\' + c : c);
  while (i < re.length) {
    const c = re[i] as string;
    if (c === '\\') {
      const e = re[i + 1];
      if (e === undefined) refuse('ending in a backslash');
      if (LITERAL_ESCAPES.has(e)) out += '\\' + e;
      else if (e === 't' || e === 'n' || e === 'r') out += '\\' + e;
      else if (CLASS_ESCAPES.has(e)) { out += '\\' + e; asciiOnly = true; }
      else refuse(`escape \\${e}`);
      i += 2;
      lastAtom = 'atom';
    } else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (re[j] === '^') { cls += '^'; j++; }
      if (re[j] === ']') refuse('class starting with ]');
      for (;;) {
        const d = re[j];
        if (d === undefined) refuse('unterminated class');
        if (d === ']') break;
        if (d === '[' || (d === '&' && re[j + 1] === '&')) refuse('nested class or class intersection');
        if (d === '\\') {
          const e = re[j + 1] as string;
          if (LITERAL_ESCAPES.has(e) || e === 't' || e === 'n' || e === 'r') cls += '\\' + e;
          else if (CLASS_ESCAPES.has(e)) { cls += '\\' + e; asciiOnly = true; }
          else refuse(`escape \\${e} in a class`);
          j += 2;
          continue;
        }
        cls += d === '-' ? '-' : d === '^' ? '\\^' : d;
        j++;
      }
      out += cls + ']';
      i = j + 1;
      lastAtom = 'atom';
    } else if (c === '(') {
      const ext = re.slice(i, i + 3);
      if (ext === '(?:' || ext === '(?=' || ext === '(?!') { out += ext; i += 3; groups.push({ captures: false }); }
      else if (re.startsWith('(?<', i) && /^\(\?<([A-Za-z_][A-Za-z0-9_]*)>/.test(re.slice(i))) {
        const m = /^\(\?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(re.slice(i)) as RegExpExecArray;
        names.push(m[1] as string);
        out += '(';
        i += m[0].length;
        groups.push({ captures: true });
      } else if (re[i + 1] === '?' || re[i + 1] === '*') refuse('group extension (?...)');
      else { names.push(null); out += '('; i++; groups.push({ captures: true }); }
      lastAtom = 'none';
    } else if (c === ')') {
      const g = groups.pop();
      if (!g) refuse('unbalanced )');
      if (g.captures && groups.length) (groups[groups.length - 1] as { captures: boolean }).captures = true;
      out += ')';
      i++;
      lastAtom = g.captures ? 'group-with-capture' : 'atom';
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let q = c;
      if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(re.slice(i));
        if (!m) refuse('brace quantifier other than {n}, {n,} or {n,m}');
        q = m[0];
        if (m[2] === undefined && re[i + q.length] === '?') refuse('lazy {n}?');
      }
      if (lastAtom === 'none' || lastAtom === 'quant') refuse('quantifier without an atom or stacked quantifiers');
      // JS clears captures of a repeated group on each iteration; Oniguruma keeps the last ones.
      const atMostOnce = q === '?' || /^\{[01](,1)?\}$/.test(q);
      if (lastAtom === 'group-with-capture' && !atMostOnce) refuse('capture group inside a repetition');
      i += q.length;
      if (re[i] === '?') { q += '?'; i++; }
      if (re[i] === '+') refuse('possessive quantifier');
      out += q;
      lastAtom = 'quant';
    } else if (c === '.') {
      out += '[^\\n]';
      i++;
      lastAtom = 'atom';
    } else if (c === '^' || c === '$') {
      out += c;
      anchors = true;
      i++;
      lastAtom = 'none';
    } else if (c === '|') {
      out += '|';
      i++;
      lastAtom = 'none';
    } else if (c === ']' || c === '}') {
      refuse(`bare ${c}`);
    } else {
      const cp = re.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      out += escapeChar(ch);
      i += ch.length;
      lastAtom = 'atom';
    }
  }
  if (groups.length) refuse('unbalanced (');
  return { source: out, names, asciiOnly, anchors };
}

const cache = new Map<string, { t: Translated; ci: RegExp; cs: RegExp }>();

function compiled(re: string) {
  let c = cache.get(re);
  if (!c) {
    const t = translate(re);
    try {
      c = { t, ci: new RegExp(t.source, 'dgsui'), cs: new RegExp(t.source, 'dgsu') };
    } catch {
      refuse(`pattern ${JSON.stringify(re)} (no exact JS equivalent)`);
    }
    cache.set(re, c);
  }
  return c;
}

function cpIndex(s: string, utf16: number): number {
  let n = 0;
  for (let i = 0; i < utf16; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

/** jq 1.6 f_match: returns the array of match objects (or a boolean in test mode). */
export function matchImpl(input: Json, re: Json, mods: Json, testMode: Json): Json {
  if (typeof input !== 'string') throw new Raised(`${describe(input)} cannot be matched, as it is not a string`);
  if (typeof re !== 'string') throw new Raised(`${describe(re)} is not a string`);
  if (mods !== null && typeof mods !== 'string') throw new Raised(`${describe(mods)} is not a string`);
  let global = false;
  let icase = false;
  for (const f of mods ?? '') {
    if (f === 'g') global = true;
    else if (f === 'i') icase = true;
    else if ('xnslp'.includes(f)) refuse(`flag ${f}`);
    else throw new Raised(`${mods} is not a valid modifier string`);
  }
  const { t, ci, cs } = compiled(re);
  const ascii = !/[^\x00-\x7f]/.test(input);
  if ((t.asciiOnly || icase) && (!ascii || /[^\x00-\x7f]/.test(re))) refuse('character classes or case folding on non-ASCII text');
  if (/[\r\u2028\u2029]/.test(input) && t.anchors) refuse('anchors on text with \\r or line separators');
  const rx = icase ? ci : cs;
  const results: Json[] = [];
  let start = 0;
  do {
    rx.lastIndex = start;
    const m = rx.exec(input);
    if (!m) break;
    if (testMode === true) return true;
    const offset = cpIndex(input, m.index);
    if (m[0].length === 0) {
      if (t.names.length) refuse('zero-width match of a pattern with groups');
      if (!ascii) refuse('zero-width matches on non-ASCII text');
      results.push({ offset, length: 0, string: '', captures: [] });
      start += 1;
      continue;
    }
    const captures: Json[] = [];
    t.names.forEach((name, gi) => {
      const g = m[gi + 1];
      if (g === undefined) {
        captures.push({ offset: -1, string: null, length: 0, name });
        return;
      }
      const gStart = m.indices ? (m.indices[gi + 1] as [number, number])[0] : -1;
      captures.push(capture(input, gStart, g, name));
    });
    const match: JsonObject = { offset, length: cpIndex(m[0], m[0].length), string: m[0], captures };
    results.push(match);
    start = m.index + m[0].length;
  } while (global && start !== input.length);
  if (testMode === true) return false;
  return results;
}

function capture(input: string, at: number, g: string, name: string | null): Json {
  if (at < 0) refuse('capture offsets unavailable');
  const offset = cpIndex(input, at);
  if (g.length === 0) return { offset, string: '', length: 0, name };
  return { offset, length: cpIndex(g, g.length), string: g, name };
}
