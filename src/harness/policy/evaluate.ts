import { statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../config-types.js';
import type { Analysis, Write } from '../shell/analyze.js';
import type { HookInput } from '../types.js';
import { compilePatterns, globToRegExp, type PathTest } from './glob.js';
import { realPath, treeEntries, MAX_TREE } from './real-path.js';
import { stateRule, STATE_RULE } from './state-files.js';
import { StateReader } from './state.js';

/**
 * The PreToolUse policy: rules in config order, first match denies, then baton's own state
 * (state-files.ts). A path is checked as given (`.` and `..` normalised) and as the file it
 * really is once symlinks are followed; the allow-list exempts each of them only for itself, so
 * `.env.example -> .env` is still `.env`. Shell commands are read by the analysis in ../shell
 * (the caller passes it, so only Bash calls load the parser). When the analysis cannot tell what
 * a command writes, strict mode (the default; `"shell": {"strict": false}` relaxes it) denies
 * if the command names a path a rule protects right now.
 */
export interface Denial {
  rule: string;
  message: string;
}

interface Candidate {
  /** As the tool call or command named it. */
  given: string;
  abs: string;
  delete: boolean;
  tree: boolean;
}

interface Checker {
  rule: RuleConfig;
  test: (abs: string) => boolean;
}

export function evaluatePolicy(input: HookInput, config: HarnessConfig, root: string, analysis?: Analysis): Denial | undefined {
  if (input.toolKind === 'other') return undefined;
  const classes = config.pathClasses;
  const allowed = compilePatterns(config.allow, classes);
  const state = new StateReader(config, root);
  const checkers = new Map<RuleConfig, Checker>();
  const checker = (rule: RuleConfig): Checker => {
    let found = checkers.get(rule);
    if (!found) {
      found = { rule, test: ruleTest(rule, classes) };
      checkers.set(rule, found);
    }
    return found;
  };
  const applies = (rule: RuleConfig) => (rule.on === 'both' || rule.on === input.toolKind) && (!rule.tools || rule.tools.includes(input.toolName));
  const writes = input.toolKind === 'edit'
    ? input.filePaths.map((path): Write => ({ given: path, paths: [absolute(path, root)], via: input.toolName }))
    : (analysis?.writes ?? []);
  const candidates = expandCandidates(writes.filter((w) => !w.unknown));
  const overflow = candidates.overflow;
  const paths = candidates.list.filter((c) => !allowed(c.abs));
  const rules = [...config.rules, stateRule(config, root)];
  for (const rule of rules) {
    if (!applies(rule)) continue;
    const hit = matchRule(rule, input, paths, candidates.list, checker(rule));
    if (hit === undefined || !state.matches(rule.when)) continue;
    return { rule: rule.id, message: renderMessage(rule, { slug: state.slug() || '<slug>', file: hit, rule: rule.id, tool: input.toolName }) };
  }
  if (input.toolKind !== 'bash' || !analysis || config.shell?.strict === false) return undefined;
  const unknowns: { construct: string; given: string; via: string; delete: boolean; paths: string[]; lastName?: Write['lastName'] }[] = [
    ...writes.filter((w) => w.unknown).map((w) => ({ construct: w.unknown as string, given: w.given, via: w.via, delete: !!w.delete, paths: w.paths, ...(w.lastName ? { lastName: w.lastName } : {}) })),
    ...overflow.map((w) => ({ construct: `a folder with more than ${MAX_TREE} entries`, given: w.given, via: w.via, delete: !!w.delete, paths: w.paths })),
    ...analysis.opaque.map((o) => ({ construct: o.construct, given: '', via: '', delete: false, paths: [] })),
  ];
  if (unknowns.length === 0) return undefined;
  const live = rules.filter((rule) => applies(rule) && rule.paths && rule.command === undefined && state.matches(rule.when));
  const protects = (abs: string, deleting: boolean): { rule: RuleConfig; file: string } | undefined => {
    for (const rule of live) {
      if (rule.bulkDelete && !deleting) continue;
      for (const path of [abs, join(abs, '_')]) {
        const real = realPath(path);
        for (const p of real === path ? [path] : [path, real]) {
          if (checker(rule).test(p) && (rule.id === STATE_RULE || !allowed(p))) return { rule, file: p };
        }
      }
    }
    return undefined;
  };
  const bases = [...new Set([...analysis.cwds, root])];
  const fragments = [...new Set([...live.flatMap((rule) => patternFragments(rule.paths ?? [], classes)), ...analysis.names.map((n) => basename(n))])];
  for (const unknown of unknowns) {
    const named = unknown.lastName
      ? unknown.paths.flatMap((folder) => fileNames(unknown.lastName!, fragments).map((name) => join(folder, name))).map((p) => protects(p, unknown.delete)).find(Boolean)
      : unknown.paths.map((p) => protects(p, unknown.delete)).find(Boolean)
        ?? namedPaths(analysis.names, bases).map((p) => protects(p, unknown.delete)).find(Boolean);
    if (!named) continue;
    return { rule: named.rule.id, message: failClosedMessage(unknown, named.file, named.rule.id) };
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
    if (fragment.startsWith(last.prefix) && fragment.endsWith(last.suffix) && fragment.length >= last.prefix.length + last.suffix.length) names.add(fragment);
  }
  return [...names].filter((name) => name !== '' && !name.includes('/'));
}

/** Literal pieces of globs and `re:` patterns (classes expanded): `*_test.py` gives `_test.py`. */
function patternFragments(patterns: readonly string[], classes: HarnessConfig['pathClasses'], seen = new Set<string>()): string[] {
  return patterns.flatMap((pattern) => {
    const members = classes[pattern];
    if (members && !seen.has(pattern)) return patternFragments(members, classes, new Set([...seen, pattern]));
    const text = pattern.startsWith('re:') ? pattern.slice(3).replace(/\\(.)/g, '$1').replace(/[\^$()|]/g, '/') : pattern;
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

function failClosedMessage(unknown: { construct: string; given: string; via: string }, file: string, rule: string): string {
  const where = unknown.via ? ` (the target of ${unknown.via}${unknown.given ? ` \`${unknown.given}\`` : ''})` : '';
  return [
    `✗ Blocked: baton cannot tell what this command writes: ${unknown.construct}${where}, and the command names ${file}, which rule ${rule} protects now.`,
    '  Fix:  spell the target out literally (no $(...), eval, variables set outside the command, or one-liners that write) so baton can check it,',
    "        or split the command so the part that writes is plain. A project can relax this check with \"shell\": {\"strict\": false} in baton.config.json.",
  ].join('\n');
}

/** Each written path, its real path, and for a folder written recursively, what is in it. */
function expandCandidates(writes: Write[]): { list: Candidate[]; overflow: Write[] } {
  const list: Candidate[] = [];
  const overflow: Write[] = [];
  for (const write of writes) {
    const flags = { delete: !!write.delete, tree: !!write.tree };
    for (const path of write.paths) {
      const lexical = resolve(path);
      const real = realPath(path);
      const forms = real === lexical ? [lexical] : [lexical, real];
      for (const abs of forms) {
        // A recursive write of a file is not bulk; of a folder (or one that may appear), it is.
        const folder = !!write.tree && isFolderOrMissing(real);
        const named = write.name ? globToRegExp(write.name) : undefined;
        if (!named || named.test(basename(abs))) list.push({ given: write.given, abs, ...flags, tree: folder });
        if (!folder) continue;
        if (!named) list.push({ given: write.given, abs: join(abs, '_'), ...flags });
        if (abs !== real) continue;
        const entries = treeEntries(real);
        if (!entries) overflow.push(write);
        for (const entry of entries ?? []) if (!named || named.test(basename(entry))) list.push({ given: entry, abs: entry, ...flags });
      }
    }
  }
  return { list, overflow };
}

function isFolderOrMissing(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return true;
  }
}

/** The matched file ('' for a command rule), or undefined when the rule does not apply. */
function matchRule(rule: RuleConfig, input: HookInput, paths: Candidate[], all: Candidate[], checker: Checker): string | undefined {
  if (rule.command !== undefined) {
    if (input.toolKind !== 'bash') return undefined;
    const re = new RegExp(rule.command);
    if (!input.command.split('\n').some((line) => re.test(line))) return undefined;
    if (!rule.paths) return '';
  }
  if (!rule.paths) return undefined;
  // baton's own state is not exempted by the allow-list.
  const pool = rule.id === STATE_RULE ? all : paths;
  return pool.find((path) => (!rule.bulkDelete || (path.delete && path.tree)) && checker.test(path.abs))?.given;
}

function ruleTest(rule: RuleConfig, classes: HarnessConfig['pathClasses']): (abs: string) => boolean {
  if (!rule.paths) return () => false;
  const test = compilePatterns(rule.paths, classes);
  const also: PathTest = rule.also ? compilePatterns(rule.also, classes) : () => true;
  const unless: PathTest = rule.unless ? compilePatterns(rule.unless, classes) : () => false;
  return (abs) => test(abs) && also(abs) && !unless(abs);
}

export function renderMessage(rule: RuleConfig, values: Record<string, string>): string {
  // A command rule matches no file: its default text names the command pattern instead.
  const what = values.file ? '{tool} on {file}' : `this {tool} command matches /${rule.command ?? ''}/`;
  const text = rule.message === undefined
    ? `Blocked by baton rule '{rule}': ${what}. Fix: change the plan, or adjust the rule in baton.config.json.`
    : Array.isArray(rule.message) ? rule.message.join('\n') : rule.message;
  return text.replace(/\{(slug|file|rule|tool)\}/g, (_m, key: string) => values[key] ?? '');
}

/** Absolute but not normalised: `..` is applied after symlinks, by realPath. */
function absolute(path: string, base: string): string {
  return isAbsolute(path) ? path : `${base}/${path}`;
}
