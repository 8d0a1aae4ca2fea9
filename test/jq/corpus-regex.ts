/**
 * Regex builtins against jq 1.6: every pattern on every input, reporting offsets, lengths and
 * every capture, so a difference between Oniguruma and the linear-time engine (RE2) in match
 * position, alternation order, laziness or the captures of repeated groups shows up. Patterns
 * that jq 1.6 would take exponential time on appear here on short inputs only.
 */
import type { Case } from './jq-binary.js';

const PATTERNS = [
  'a', 'a.c', '[a-c]+', '[^b]', '[-a]', '\\d+', '\\w+\\s', '\\s*', '\\s', '\\S+', '[\\s,]+', '[^\\s]+', '[\\S]', '\\.', '[.]', '\\/', '^a', 'b$', '^$', 'a|b|c', 'x*',
  'a{2,}', 'a{0}', 'o{,2}', '(a)(b)?', '(?<x>a)(?<y>b)?', '(ab)+', '(?:ab)+?', 'a.*?c', '(a)+', '(a){2}', '(a){1,3}',
  '(a){0,1}', '(?:(a)|b)+', '(a|b)*', '(a|b)+?', '((a)|(b))+', '(?:(a)|(b))*', '(a|(b))+', '((a)|b)*?c', '(ab|a)*c',
  '(?:(a)|(ab))*c', '(a|ab)(c|bcd)(d*)', '(a)*?b', '(x)*', '(.)*', '(\\w)+\\d', '(?<n>a)+',
  // Refused by name: they need backtracking, or Oniguruma runs an extra empty iteration.
  '(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b', 'a++', '(a?)*b', '(a*)+', '(b|a|)+', '((a{1000}){1000}){1000}',
];
// Exponential for a backtracking engine: jq 1.6 itself gives up on them ("retry-limit-in-match
// over") from ~20 characters on, so they are compared on short inputs only.
const CATASTROPHIC = ['^(a|a)*$', '(a+)+$', '(a+)+b', '^(a|aa)+$', '(x+x+)+y', '(?:a|a)*$'];
const SHORT = ['', 'a', 'b', 'aab', 'abab', 'aaab', 'abcd', 'abc', 'xyz', 'a1 b2', 'x/y.z', 'a\u000bb\tc\fd'];
const LONG = 'aaaaaaaaaaaaaaaaaaaaaaaaaaab';

// One case per pattern over a batch of inputs (one jq process each); an error is one value of
// the batch, not the end of it. Non-ASCII text gets its own case: baton refuses classes and
// case folding on it, which would otherwise refuse the whole batch.
const MATCH = '[.[] | try ([match($p; "g") | [.offset, .length, .string, (.captures[] | [.offset, .length, .string, .name])]], test($p)) catch "error"]';
// No gsub here: with a pattern that matches the empty string it never ends in jq 1.6.
const WHOLE = '[try [scan($p)] catch "error", try [splits($p)] catch "error", try sub($p; "<\\(.)>") catch "error", try [capture($p)] catch "error"]';

const on = (expr: string, input: unknown, p: string): Case => ({ expr, input: JSON.stringify(input), args: [{ name: 'p', value: p }] });

export const REGEX_CASES: Case[] = [
  ...PATTERNS.flatMap((p) => [on(MATCH, [...SHORT, LONG], p), on(MATCH, ['é😀a', 'aé'], p), on(WHOLE, 'abab aab x1', p)]),
  ...CATASTROPHIC.flatMap((p) => [on(MATCH, SHORT, p), on(WHOLE, 'abab aab x1', p)]),
  ...['a', '[ab]+', '(?<d>\\d)', 'b(a)', '\\s+'].map((p) => on('[.[] | gsub($p; "<\\(.)>"), gsub($p; "X"; "g")]', ['abab aab x1', '', 'zzz'], p)),
];
