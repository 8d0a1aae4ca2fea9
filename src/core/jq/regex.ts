/**
 * jq 1.6 uses Oniguruma (Perl_NT syntax), a backtracking engine: on `(a+)+$` against 5,000
 * characters it gives up ("Regex failure: retry-limit-in-match over"), and a JS RegExp never
 * finishes at all. A jq expression arrives from whoever writes to a
 * document and runs while the writer holds its lock, so baton matches with RE2's linear-time
 * algorithm instead (re2js, a pure-JS port: no native build, no start-up cost unless a regex
 * builtin runs). A pattern is translated only where Oniguruma and RE2 provably agree; anything
 * else is refused rather than approximated, and features that need backtracking
 * (backreferences, lookaround, possessive quantifiers) are refused by name.
 *
 * Measured 2026-12-01 on the 2-core dev machine (noisy, figures side by side in one run):
 * re2js 2.10 loads in ~7 ms as ESM (~18 ms as CJS), paid only by programs that call a regex
 * builtin (`ready()` loads it; `update` without one never does). `^(a|a)*$` and `(a+)+$` on
 * 5,000 characters answer in ~20 ms each (a JS RegExp: no answer in minutes). Alternatives:
 * a JS RegExp with a step limit cannot be interrupted mid-match; V8's experimental linear
 * engine needs a process flag (`--enable-experimental-regexp-engine`) that a library cannot set.
 */
import type * as Re2Module from 're2js';
import type { Matcher, RE2JS } from 're2js';
import { tick } from './budget.js';
import { JqError, Raised, unsupported } from './jq-errors.js';
import type { Json, JsonObject } from './values.js';
import { describe, objPut } from './values.js';

interface Translated {
  source: string;
  names: (string | null)[]; // per capture group, in order
  asciiOnly: boolean; // uses \d \w \s (Unicode-aware in Oniguruma) or case folding
  anchors: boolean;
}

const LITERAL_ESCAPES = new Set(['.', '\\', '/', '-', '[', ']', '(', ')', '{', '}', '*', '+', '?', '|', '^', '$']);
const CLASS_ESCAPES = new Set(['d', 'w', 's', 'D', 'W', 'S']);
// Oniguruma's (and JS's) \s on ASCII; RE2's, like Perl's, leaves out the vertical tab.
const SPACE = '\\t\\n\\v\\f\\r ';

const NEEDS_BACKTRACKING =
  " (it needs a backtracking engine; baton's regex engine runs in linear time so no pattern can hang a writer)";

function refuse(what: string): never {
  throw unsupported(`regex ${what}`);
}

function translate(re: string): Translated {
  const names: (string | null)[] = [];
  let out = '';
  let asciiOnly = false;
  let anchors = false;
  // Stack of open groups: whether each contains a capture, for the "capture inside a repeat" check.
  const groups: { captures: boolean; at: number }[] = [];
  let lastGroup = '';
  let lastAtom: 'none' | 'atom' | 'group-with-capture' | 'quant' = 'none';
  let i = 0;
  const escapeChar = (c: string): string => (/[\^$\\.*+?()[\]{}|/]/.test(c) ? '\\' + c : c);
  while (i < re.length) {
    const c = re[i] as string;
    if (c === '\\') {
      const e = re[i + 1];
      if (e === undefined) refuse('ending in a backslash');
      if (/[1-9kg]/.test(e)) refuse(`backreference or subroutine \\${e}${NEEDS_BACKTRACKING}`);
      if (LITERAL_ESCAPES.has(e)) out += '\\' + e;
      else if (e === 't' || e === 'n' || e === 'r') out += '\\' + e;
      else if (e === 's' || e === 'S') {
        out += e === 's' ? `[${SPACE}]` : `[^${SPACE}]`;
        asciiOnly = true;
      } else if (CLASS_ESCAPES.has(e)) {
        out += '\\' + e;
        asciiOnly = true;
      } else refuse(`escape \\${e}`);
      i += 2;
      lastAtom = 'atom';
    } else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (re[j] === '^') {
        cls += '^';
        j++;
      }
      if (re[j] === ']') refuse('class starting with ]');
      for (;;) {
        const d = re[j];
        if (d === undefined) refuse('unterminated class');
        if (d === ']') break;
        if (d === '[' || (d === '&' && re[j + 1] === '&')) refuse('nested class or class intersection');
        if (d === '\\') {
          const e = re[j + 1] as string;
          if (LITERAL_ESCAPES.has(e) || e === 't' || e === 'n' || e === 'r') cls += '\\' + e;
          else if (e === 's') {
            cls += SPACE;
            asciiOnly = true;
          } else if (e === 'S') refuse('\\S inside a class');
          else if (CLASS_ESCAPES.has(e)) {
            cls += '\\' + e;
            asciiOnly = true;
          } else refuse(`escape \\${e} in a class`);
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
      if (ext === '(?=' || ext === '(?!' || re.startsWith('(?<=', i) || re.startsWith('(?<!', i))
        refuse(`lookaround ${ext}...)${NEEDS_BACKTRACKING}`);
      if (ext === '(?:') {
        groups.push({ captures: false, at: out.length });
        out += ext;
        i += 3;
      } else if (re.startsWith('(?<', i) && /^\(\?<([A-Za-z_][A-Za-z0-9_]*)>/.test(re.slice(i))) {
        const m = /^\(\?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(re.slice(i)) as RegExpExecArray;
        names.push(m[1] as string);
        groups.push({ captures: true, at: out.length });
        out += '(';
        i += m[0].length;
      } else if (re[i + 1] === '?' || re[i + 1] === '*') refuse('group extension (?...)');
      else {
        names.push(null);
        groups.push({ captures: true, at: out.length });
        out += '(';
        i++;
      }
      lastAtom = 'none';
    } else if (c === ')') {
      const g = groups.pop();
      if (!g) refuse('unbalanced )');
      if (g.captures && groups.length) (groups[groups.length - 1] as { captures: boolean }).captures = true;
      out += ')';
      lastGroup = out.slice(g.at);
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
      // A repeated group keeps the captures of its last iteration in both engines, but Oniguruma
      // runs one more, empty, iteration of a group that can match nothing (`(a?)*b` on "ab"
      // captures "" there and "a" in RE2).
      const atMostOnce = q === '?' || /^\{[01](,1)?\}$/.test(q);
      if (lastAtom === 'group-with-capture' && !atMostOnce && matchesEmpty(lastGroup, re))
        refuse('repeated capture group that can match the empty string');
      i += q.length;
      if (re[i] === '?') {
        q += '?';
        i++;
      }
      if (re[i] === '+') refuse(`possessive quantifier${NEEDS_BACKTRACKING}`);
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

let re2: typeof Re2Module | undefined;

/** Loads the regex engine; a program that calls a regex builtin awaits this before it runs. */
export async function loadRegexEngine(): Promise<void> {
  re2 ??= await import('re2js');
}

function engine(): typeof Re2Module {
  if (!re2)
    throw new JqError(
      'jq_unsupported',
      'the regex engine is not loaded: call `await program.ready()` before `run` (Doc.get/update do)',
    );
  return re2;
}

function matchesEmpty(group: string, re: string): boolean {
  try {
    return engine().RE2JS.matches(group, '');
  } catch (e) {
    if (e instanceof JqError) throw e;
    refuse(`pattern ${JSON.stringify(re)} (no exact equivalent in the linear-time engine)`);
  }
}

const cache = new Map<string, { t: Translated; cs?: RE2JS; ci?: RE2JS }>();

function compiled(re: string, icase: boolean): { t: Translated; rx: RE2JS } {
  const re2 = engine();
  let c = cache.get(re);
  if (!c) {
    c = { t: translate(re) };
    cache.set(re, c);
  }
  const key = icase ? 'ci' : 'cs';
  let rx = c[key];
  if (!rx) {
    try {
      rx = re2.RE2JS.compile(c.t.source, icase ? re2.RE2JS.CASE_INSENSITIVE : 0);
    } catch {
      refuse(`pattern ${JSON.stringify(re)} (no exact equivalent in the linear-time engine)`);
    }
    c[key] = rx;
  }
  return { t: c.t, rx };
}

/**
 * Code point offsets of UTF-16 positions in one string. Positions asked in increasing order are
 * counted on from the last one (a global match over the whole text is linear, not quadratic);
 * one before the last is counted from `mark` (the start of the current match), or from 0.
 */
class CodePoints {
  private pos = 0;
  private cp = 0;
  private markPos = 0;
  private markCp = 0;
  constructor(
    private readonly s: string,
    private readonly ascii: boolean,
  ) {}
  at(utf16: number): number {
    if (this.ascii) return utf16;
    if (utf16 < this.pos) {
      [this.pos, this.cp] = utf16 >= this.markPos ? [this.markPos, this.markCp] : [0, 0];
    }
    for (; this.pos < utf16; this.cp++) {
      const c = this.s.charCodeAt(this.pos);
      this.pos += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    return this.cp;
  }
  mark(utf16: number): number {
    const cp = this.at(utf16);
    [this.markPos, this.markCp] = [this.pos, this.cp];
    return cp;
  }
}

interface Prepared {
  input: string;
  t: Translated;
  rx: RE2JS;
  global: boolean;
  ascii: boolean;
}

/** Checks f_match's arguments and compiles the pattern; charges the budget for one pass. */
function prepare(input: Json, re: Json, mods: Json): Prepared {
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
  const { t, rx } = compiled(re, icase);
  // One call cannot be interrupted, and RE2's capture pass is linear in text x pattern: charge
  // that up front, so a huge text against a huge pattern ends on the budget instead of hanging.
  tick(Math.ceil(((input.length + 1) * (t.source.length + 1)) / 64));
  const ascii = !/[^\x00-\x7f]/.test(input);
  if ((t.asciiOnly || icase) && (!ascii || /[^\x00-\x7f]/.test(re)))
    refuse('character classes or case folding on non-ASCII text');
  if (/[\r\u2028\u2029]/.test(input) && t.anchors) refuse('anchors on text with \\r or line separators');
  return { input, t, rx, global, ascii };
}

/** jq 1.6 f_match: returns the array of match objects (or a boolean in test mode). */
export function matchImpl(inputValue: Json, re: Json, mods: Json, testMode: Json): Json {
  const { input, t, rx, global, ascii } = prepare(inputValue, re, mods);
  const cps = new CodePoints(input, ascii);
  const m: Matcher = rx.matcher(input);
  const results: Json[] = [];
  let start = 0;
  do {
    if (start > input.length || !m.find(start)) break;
    if (testMode === true) return true;
    tick(1 + t.names.length);
    const at = m.start();
    const end = m.end();
    const offset = cps.mark(at);
    if (end === at) {
      // jq 1.6 (f_match) reports no captures at all for an empty match, whatever the groups.
      if (!ascii) refuse('zero-width matches on non-ASCII text');
      results.push({ offset, length: 0, string: '', captures: [] });
      start += 1;
      continue;
    }
    const whole = input.slice(at, end);
    const captures: Json[] = [];
    t.names.forEach((name, gi) => {
      const gStart = m.start(gi + 1);
      if (gStart < 0) {
        captures.push({ offset: -1, string: null, length: 0, name });
        return;
      }
      const gEnd = m.end(gi + 1);
      const g = input.slice(gStart, gEnd);
      const gOffset = cps.at(gStart);
      if (g.length === 0) captures.push({ offset: gOffset, string: '', length: 0, name });
      else captures.push({ offset: gOffset, length: cps.at(gEnd) - gOffset, string: g, name });
    });
    const match: JsonObject = { offset, length: cps.at(end) - offset, string: whole, captures };
    results.push(match);
    start = end;
  } while (global && start !== input.length);
  if (testMode === true) return false;
  return results;
}

/** One place `gsub` replaces: the text since the previous one, and its named captures. */
export interface SubSite {
  before: string;
  captures: JsonObject;
}

/**
 * The places jq 1.6's `sub(re; s; flags)` with "g" replaces, found in one pass. 1.6 matches the
 * rest of the text again after each replacement, recursing once per match; without anchors that
 * finds exactly what one scan from the end of the previous match finds. With anchors (`^` matches
 * at the start of each rest) the rest is matched again, as 1.6 does, in a loop. An empty match
 * before the end makes 1.6 recurse forever on the same rest, so it is refused.
 */
export function subSites(inputValue: Json, re: Json, flags: Json): { sites: SubSite[]; tail: string } {
  const { input, t, rx, ascii } = prepare(inputValue, re, flags);
  const sites: SubSite[] = [];
  const whole = t.anchors ? null : rx.matcher(input);
  let pos = 0;
  for (;;) {
    let m: Matcher;
    let base = 0;
    if (whole) {
      m = whole;
      if (!m.find(pos)) break;
    } else {
      if (pos > 0) tick(Math.ceil(((input.length - pos + 1) * (t.source.length + 1)) / 64));
      m = rx.matcher(input.slice(pos));
      base = pos;
      if (!m.find(0)) break;
    }
    tick(1 + t.names.length);
    const at = base + m.start();
    const end = base + m.end();
    const captures: JsonObject = {};
    if (at === end) {
      if (at < input.length)
        throw unsupported(
          'sub or gsub with "g" on a pattern that matches the empty string (jq 1.6 never finishes: it matches the same rest again forever)',
        );
      if (!ascii) refuse('zero-width matches on non-ASCII text');
    } else {
      t.names.forEach((name, gi) => {
        if (name === null) return;
        const gStart = m.start(gi + 1);
        objPut(captures, name, gStart < 0 ? null : input.slice(base + gStart, base + m.end(gi + 1)));
      });
    }
    sites.push({ before: input.slice(pos, at), captures });
    pos = end;
    if (pos === input.length) return { sites, tail: '' };
  }
  return { sites, tail: input.slice(pos) };
}
