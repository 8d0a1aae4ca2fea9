/**
 * Path patterns. A pattern is a path-class name, `re:<regular expression>` (unanchored), or a
 * glob with bash `case` semantics: `*` matches any run of characters *including* `/` (the Eneo
 * classes were written that way), `?` one character, `[...]` a character set. Globs are anchored
 * and matched against the absolute path.
 */
import type { HarnessConfig, RuleConfig } from '../config.js';

export type PathTest = (path: string) => boolean;

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      while (glob[i + 1] === '*') i++;
      source += '.*';
    } else if (c === '?') {
      source += '.';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      const body = glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replaceAll('\\', '\\\\');
      source += `[${body}]`;
      i = end;
    } else {
      source += /[.+^${}()|\\/]/.test(c) ? `\\${c}` : c;
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * Compiled patterns by their text. A resident server (`baton serve`) judges every call with the
 * same rules, and compiling them was a tenth of its CPU per decision; a RegExp without the `g` or
 * `y` flag keeps no state between tests, so one can serve every caller. Bounded: a config's
 * patterns are few, and a cache that fills is emptied rather than grown.
 */
const compiled = new Map<string, RegExp>();
const MAX_COMPILED = 1024;

function compiledPattern(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    re = pattern.startsWith('re:') ? new RegExp(pattern.slice(3)) : globToRegExp(pattern);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** One test for a list of class names, globs and `re:` patterns (any of them matching). */
export function compilePatterns(patterns: readonly string[], classes: Record<string, readonly string[]>): PathTest {
  const regexps: RegExp[] = [];
  const expand = (pattern: string, seen: Set<string>) => {
    const members = classes[pattern];
    if (members && !seen.has(pattern)) {
      seen.add(pattern);
      for (const member of members) expand(member, seen);
    } else {
      regexps.push(compiledPattern(pattern));
    }
  };
  for (const pattern of patterns) expand(pattern, new Set());
  return (path) => regexps.some((re) => re.test(path));
}

/** A rule's path test: its `paths`, narrowed by `also` and `unless`. */
export function ruleTest(rule: RuleConfig, classes: HarnessConfig['pathClasses']): PathTest {
  if (!rule.paths) return () => false;
  const test = compilePatterns(rule.paths, classes);
  const also: PathTest = rule.also ? compilePatterns(rule.also, classes) : () => true;
  const unless: PathTest = rule.unless ? compilePatterns(rule.unless, classes) : () => false;
  return (abs) => test(abs) && also(abs) && !unless(abs);
}

/** The globs and `re:` patterns a list stands for, class names expanded. */
export function expandPatterns(patterns: readonly string[], classes: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  const expand = (pattern: string, seen: Set<string>) => {
    const members = classes[pattern];
    if (members && !seen.has(pattern)) {
      seen.add(pattern);
      for (const member of members) expand(member, seen);
    } else out.push(pattern);
  };
  for (const pattern of patterns) expand(pattern, new Set());
  return out;
}

/** One test of GNU find: `-path` (fnmatch without FNM_PATHNAME: bash `case` globs) or `-regex` (ERE). */
export interface FindTest {
  test: '-name' | '-path' | '-regex';
  text: string;
}

/**
 * A pattern as tests for GNU find, any of which matching: globs as `-path` (the same semantics),
 * `re:` patterns of the plain shapes baton's own rules use (`^literal$`, `literal(/|$)`) as
 * `-path` too, being several times cheaper per entry than `-regex`; other `re:` patterns as ERE.
 * Undefined when a `re:` pattern has syntax ERE lacks.
 */
export function patternToFind(pattern: string): FindTest[] | undefined {
  return patternToFindPaths(pattern)?.map(byName);
}

/**
 * `*X` and `*\/X` with no `/` or wildcard in X say only what the last name is: find's `-name`
 * tests that much shorter string (most test-file patterns, `*_test.py`, are of this shape).
 */
function byName(test: FindTest): FindTest {
  const last = test.test === '-path' ? /^\*\/?([^*?[\\/]+)$/.exec(test.text) : null;
  if (!last) return test;
  return { test: '-name', text: test.text.startsWith('*/') ? (last[1] as string) : `*${last[1] as string}` };
}

function patternToFindPaths(pattern: string): FindTest[] | undefined {
  if (!pattern.startsWith('re:')) return [{ test: '-path', text: pattern }];
  const plain = /^(\^?)((?:[^\\.*+?^${}()|[\]]|\\[^A-Za-z0-9])+)(\$|\(\/\|\$\))?$/.exec(pattern.slice(3));
  if (plain) {
    const literal = (plain[2] as string).replace(/\\(.)/g, '$1').replace(/[*?[\\]/g, '\\$&');
    const head = plain[1] ? '' : '*';
    if (plain[3] === '$') return [{ test: '-path', text: `${head}${literal}` }];
    if (plain[3])
      return [
        { test: '-path', text: `${head}${literal}` },
        { test: '-path', text: `${head}${literal}/*` },
      ];
    return [{ test: '-path', text: `${head}${literal}*` }];
  }
  const ere = jsToEre(pattern.slice(3));
  return ere === undefined ? undefined : [{ test: '-regex', text: ere }];
}

/**
 * A pattern as a POSIX extended regular expression matching the whole path, for GNU find's
 * `-regex` (the OS sandbox's scan for new protected files runs in bash, not Node). Undefined for
 * a `re:` pattern using JavaScript syntax ERE lacks (lookaround, back-references, `\b`, escapes
 * inside brackets beyond the common ones): the caller then cannot scan for it.
 */
export function patternToEre(pattern: string): string | undefined {
  return pattern.startsWith('re:') ? jsToEre(pattern.slice(3)) : globToEre(pattern);
}

const ERE_SPECIAL = /[.[\]()*+?{}|^$\\]/;

/** A bash `case` glob (a backslash quotes the next character) as a whole-path ERE. */
export function globToEre(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '\\' && i + 1 < glob.length) {
      const next = glob[++i] as string;
      out += ERE_SPECIAL.test(next) ? `\\${next}` : next;
    } else if (c === '*') {
      while (glob[i + 1] === '*') i++;
      out += '.*';
    } else if (c === '?') out += '.';
    else if (c === '[' && glob.indexOf(']', i + 2) >= 0) {
      const end = glob.indexOf(']', i + 2);
      out += `[${glob.slice(i + 1, end).replace(/^!/, '^')}]`;
      i = end;
    } else out += ERE_SPECIAL.test(c) ? `\\${c}` : c;
  }
  return out;
}

const CLASS_ESCAPES: Record<string, string> = { d: '0-9', w: 'A-Za-z0-9_', s: '[:space:]' };

/** An unanchored JavaScript regular expression as a whole-path ERE (`.*(...).*`). */
function jsToEre(source: string): string | undefined {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    const next = source[i + 1] ?? '';
    if (c === '\\') {
      i++;
      if (next === 'd' || next === 'w' || next === 's') out += `[${CLASS_ESCAPES[next]}]`;
      else if (next === 'D' || next === 'W' || next === 'S') out += `[^${CLASS_ESCAPES[next.toLowerCase()]}]`;
      else if (/[A-Za-z0-9]/.test(next) || next === '') return undefined;
      else out += ERE_SPECIAL.test(next) ? `\\${next}` : next;
    } else if (c === '[') {
      const end = classEnd(source, i);
      if (end < 0) return undefined;
      let body = '';
      for (let j = i + 1; j < end; j++) {
        const d = source[j] as string;
        if (d !== '\\') {
          body += d;
          continue;
        }
        const e = source[++j] ?? '';
        if (CLASS_ESCAPES[e]) body += CLASS_ESCAPES[e];
        else if (/[./_:@,]/.test(e)) body += e;
        else return undefined; // `\]`, `\\`, `\-` and friends need reordering ERE brackets cannot express simply
      }
      out += `[${body}]`;
      i = end;
    } else if (c === '(' && next === '?') {
      if (source[i + 2] !== ':') return undefined; // lookaround, named groups
      out += '(';
      i += 2;
    } else if ((c === '*' || c === '+' || c === '?' || c === '}') && next === '?') {
      // Lazy and greedy match the same set of strings: only whether there is a match counts here.
      out += c;
      i++;
    } else out += c;
  }
  return `.*(${out}).*`;
}

/** Where a bracket expression starting at `start` ends; -1 for `[]` and `[^]`, which JavaScript reads unlike ERE. */
function classEnd(source: string, start: number): number {
  let j = start + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') return -1;
  for (; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === ']') return j;
  }
  return -1;
}
