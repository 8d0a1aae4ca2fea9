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

/** One test for a list of class names, globs and `re:` patterns (any of them matching). */
export function compilePatterns(patterns: readonly string[], classes: Record<string, readonly string[]>): PathTest {
  const regexps: RegExp[] = [];
  const expand = (pattern: string, seen: Set<string>) => {
    const members = classes[pattern];
    if (members && !seen.has(pattern)) {
      seen.add(pattern);
      for (const member of members) expand(member, seen);
    } else if (pattern.startsWith('re:')) {
      regexps.push(new RegExp(pattern.slice(3)));
    } else {
      regexps.push(globToRegExp(pattern));
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
