/**
 * The PreToolUse policy: rules in config order, first match denies, then baton's own state
 * (state-files.ts). A path is checked as given (`.` and `..` normalised) and as the file it
 * really is once symlinks are followed; the allow-list exempts each of them only for itself, so
 * `.env.example -> .env` is still `.env`. Shell commands are read by the analysis in ../shell
 * (the caller passes it, so only Bash calls load the parser). What the analysis cannot resolve
 * goes to fail-closed.ts, unless `"shell": {"strict": false}` or the OS sandbox holds the rule's
 * paths for this call (../sandbox/).
 */
import { statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../../project/config.js';
import type { Analysis, Write } from '../shell/analyze.js';
import type { HookInput } from '../hooks/types.js';
import { compilePatterns, globToRegExp, ruleTest } from '../../project/policy/glob.js';
import { failClosed } from './fail-closed.js';
import { realPath, treeEntries } from './real-path.js';
import { stateRule } from '../../project/policy/state-files.js';
import { ignoresAllowList } from './reservations.js';
import type { SharedDocuments } from '../../project/policy/state.js';
import { StateReader } from '../../project/policy/state.js';

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

export function evaluatePolicy(
  input: HookInput,
  config: HarnessConfig,
  root: string,
  analysis?: Analysis,
  shared?: SharedDocuments,
  /** Rules the OS sandbox enforces for this call: what the analysis cannot resolve is left to it. */
  sandboxed?: (rule: RuleConfig) => boolean,
): Denial | undefined {
  if (input.toolKind === 'other') return undefined;
  const classes = config.pathClasses;
  const allowed = compilePatterns(config.allow, classes);
  const state = new StateReader(config, root, shared);
  const checkers = new Map<RuleConfig, Checker>();
  const checker = (rule: RuleConfig): Checker => {
    let found = checkers.get(rule);
    if (!found) {
      found = { rule, test: ruleTest(rule, classes) };
      checkers.set(rule, found);
    }
    return found;
  };
  const applies = (rule: RuleConfig) =>
    (rule.on === 'both' || rule.on === input.toolKind) && (!rule.tools || rule.tools.includes(input.toolName));
  const writes =
    input.toolKind === 'edit'
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
    return {
      rule: rule.id,
      message: renderMessage(rule, { slug: state.slug() || '<slug>', file: hit, rule: rule.id, tool: input.toolName }),
    };
  }
  if (input.toolKind !== 'bash' || !analysis || config.shell?.strict === false) return undefined;
  const live = rules.filter(
    (rule) =>
      applies(rule) && rule.paths && rule.command === undefined && state.matches(rule.when) && !sandboxed?.(rule),
  );
  return failClosed({
    writes,
    overflow,
    analysis,
    live,
    root,
    classes,
    test: (rule, path) => checker(rule).test(path),
    allowed,
  });
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
        for (const entry of entries ?? [])
          if (!named || named.test(basename(entry))) list.push({ given: entry, abs: entry, ...flags });
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
function matchRule(
  rule: RuleConfig,
  input: HookInput,
  paths: Candidate[],
  all: Candidate[],
  checker: Checker,
): string | undefined {
  if (rule.command !== undefined) {
    if (input.toolKind !== 'bash') return undefined;
    const re = new RegExp(rule.command);
    if (!input.command.split('\n').some((line) => re.test(line))) return undefined;
    if (!rule.paths) return '';
  }
  if (!rule.paths) return undefined;
  // baton's own state and the work board's reservations are not exempted by the allow-list.
  const pool = ignoresAllowList(rule) ? all : paths;
  return pool.find((path) => (!rule.bulkDelete || (path.delete && path.tree)) && checker.test(path.abs))?.given;
}

function renderMessage(rule: RuleConfig, values: Record<string, string>): string {
  // A command rule matches no file: its default text names the command pattern instead.
  const what = values.file ? '{tool} on {file}' : `this {tool} command matches /${rule.command ?? ''}/`;
  const text =
    rule.message === undefined
      ? `Blocked by baton rule '{rule}': ${what}. Fix: change the plan, or adjust the rule in baton.config.json.`
      : Array.isArray(rule.message)
        ? rule.message.join('\n')
        : rule.message;
  return text.replace(/\{(slug|file|rule|tool)\}/g, (_m, key: string) => values[key] ?? '');
}

/** Absolute but not normalised: `..` is applied after symlinks, by realPath. */
function absolute(path: string, base: string): string {
  return isAbsolute(path) ? path : `${base}/${path}`;
}
