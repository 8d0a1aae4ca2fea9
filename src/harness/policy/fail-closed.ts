/**
 * Strict mode: a shell command whose writes baton could not resolve (an unknown target, an
 * opaque program, a folder past the walk bound) is denied when what it writes could be a file a
 * rule protects now. An unknown file name in a literal folder is checked against the names it
 * could be; anything less known, against every path the command names (docs/gates.md).
 */
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../../project/config.js';
import type { Analysis, Write } from '../shell/analyze.js';
import type { Denial } from './evaluate.js';
import { ignoresAllowList, RESERVED_RULE } from './reservations.js';
import { realPath, MAX_TREE } from './real-path.js';

export interface FailClosedInput {
  writes: Write[];
  overflow: Write[];
  analysis: Analysis;
  /** Path rules that apply to this call now. */
  live: RuleConfig[];
  root: string;
  classes: HarnessConfig['pathClasses'];
  test: (rule: RuleConfig, path: string) => boolean;
  allowed: (path: string) => boolean;
}

interface Unknown {
  construct: string;
  given: string;
  via: string;
  delete: boolean;
  paths: string[];
  lastName?: Write['lastName'];
}

export function failClosed({
  writes,
  overflow,
  analysis,
  live,
  root,
  classes,
  test,
  allowed,
}: FailClosedInput): Denial | undefined {
  const unknowns: Unknown[] = [
    ...writes
      .filter((w) => w.unknown)
      .map((w) => ({
        construct: w.unknown as string,
        given: w.given,
        via: w.via,
        delete: !!w.delete,
        paths: w.paths,
        ...(w.lastName ? { lastName: w.lastName } : {}),
      })),
    ...overflow.map((w) => ({
      construct: `a folder with more than ${MAX_TREE} entries`,
      given: w.given,
      via: w.via,
      delete: !!w.delete,
      paths: w.paths,
    })),
    ...analysis.opaque.map((o) => ({ construct: o.construct, given: '', via: '', delete: false, paths: [] })),
  ];
  if (unknowns.length === 0) return undefined;
  const protects = (abs: string, deleting: boolean): { rule: RuleConfig; file: string } | undefined => {
    for (const rule of live) {
      if (rule.bulkDelete && !deleting) continue;
      for (const path of [abs, join(abs, '_')]) {
        const real = realPath(path);
        for (const p of real === path ? [path] : [path, real]) {
          if (test(rule, p) && (ignoresAllowList(rule) || !allowed(p))) return { rule, file: p };
        }
      }
    }
    return undefined;
  };
  const bases = [...new Set([...analysis.cwds, root])];
  const fragments = [
    ...new Set([
      ...live.flatMap((rule) => patternFragments(rule.paths ?? [], classes)),
      ...analysis.names.map((n) => basename(n)),
    ]),
  ];
  for (const unknown of unknowns) {
    const last = unknown.lastName;
    const named = last
      ? unknown.paths
          .flatMap((folder) => fileNames(last, fragments).map((name) => join(folder, name)))
          .map((p) => protects(p, unknown.delete))
          .find(Boolean)
      : (unknown.paths.map((p) => protects(p, unknown.delete)).find(Boolean) ??
        namedPaths(analysis.names, bases)
          .map((p) => protects(p, unknown.delete))
          .find(Boolean));
    if (named) return { rule: named.rule.id, message: message(unknown, named.file, named.rule) };
  }
  return undefined;
}

/**
 * File names `prefix` + something + `suffix` may be, to test against the rules: the literal
 * pieces of the protected patterns (`.env`, `_test.py`, `tests`...) and of the command's words,
 * alone when they fit the prefix and suffix, and between them.
 */
function fileNames(last: { prefix: string; suffix: string }, fragments: string[]): string[] {
  const names = new Set([`${last.prefix}${last.suffix}`, `${last.prefix}_${last.suffix}`]);
  for (const fragment of fragments) {
    names.add(`${last.prefix}${fragment}${last.suffix}`);
    if (
      fragment.startsWith(last.prefix) &&
      fragment.endsWith(last.suffix) &&
      fragment.length >= last.prefix.length + last.suffix.length
    )
      names.add(fragment);
  }
  return [...names].filter((name) => name !== '' && !name.includes('/'));
}

/** Literal pieces of globs and `re:` patterns (classes expanded): `*_test.py` gives `_test.py`. */
function patternFragments(
  patterns: readonly string[],
  classes: HarnessConfig['pathClasses'],
  seen = new Set<string>(),
): string[] {
  return patterns.flatMap((pattern) => {
    const members = classes[pattern];
    if (members && !seen.has(pattern)) return patternFragments(members, classes, new Set([...seen, pattern]));
    const text = pattern.startsWith('re:')
      ? pattern
          .slice(3)
          .replace(/\\(.)/g, '$1')
          .replace(/[\^$()|]/g, '/')
      : pattern;
    return text.split(/[*?[\]/]+/).filter((piece) => piece.length > 0);
  });
}

/** The paths a command's words may name, from every folder it may run in. */
function namedPaths(names: string[], bases: string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    if (name.startsWith('-') && !name.includes('/')) continue;
    const value = name.replace(/^-[A-Za-z]*=?|^[A-Za-z_]+=/, '');
    if (!value) continue;
    for (const base of isAbsolute(value) ? ['/'] : bases) out.add(resolve(base, value));
    if (out.size > 2000) break;
  }
  return [...out];
}

function message(unknown: { construct: string; given: string; via: string }, file: string, rule: RuleConfig): string {
  const where = unknown.via ? ` (the target of ${unknown.via}${unknown.given ? ` \`${unknown.given}\`` : ''})` : '';
  // A reservation says whose the file is: the agent to leave it to.
  const whose =
    rule.id === RESERVED_RULE && Array.isArray(rule.message)
      ? ` (${(rule.message[0] ?? '').replace(/^✗ Blocked: \{file\} /, '').replace(/\.$/, '')})`
      : '';
  return [
    `✗ Blocked: baton cannot tell what this command writes: ${unknown.construct}${where}, and the command names ${file}, which rule ${rule.id} protects now${whose}.`,
    '  Fix:  spell the target out literally (no $(...), eval, variables set outside the command, or one-liners that write) so baton can check it,',
    '        or split the command so the part that writes is plain. A project can relax this check with "shell": {"strict": false} in baton.config.json.',
  ].join('\n');
}
