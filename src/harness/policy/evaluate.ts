import { isAbsolute, resolve } from 'node:path';
import type { HarnessConfig, RuleConfig } from '../config-types.js';
import type { HookInput } from '../types.js';
import { writeTargets } from './bash-targets.js';
import { compilePatterns, type PathTest } from './glob.js';
import { StateReader } from './state.js';

/**
 * The PreToolUse policy: rules in config order, first match denies. The allow-list is checked
 * first and exempts a path from every path rule. State is read only when a rule's path or
 * command already matched, so the common allow path costs a few regex tests.
 */
export interface Denial {
  rule: string;
  message: string;
}

export function evaluatePolicy(input: HookInput, config: HarnessConfig, root: string): Denial | undefined {
  if (input.toolKind === 'other') return undefined;
  const classes = config.pathClasses;
  const allowed = compilePatterns(config.allow, classes);
  const state = new StateReader(config, root);
  const candidates = input.toolKind === 'edit'
    ? input.filePaths.map((path) => ({ given: path, abs: absolute(path, root) }))
    : writeTargets(input.command).map((word) => ({ given: word, abs: absolute(word, input.cwd || root) }));
  const paths = candidates.filter((path) => !allowed(path.abs));
  for (const rule of config.rules) {
    if (rule.on !== 'both' && rule.on !== input.toolKind) continue;
    if (rule.tools && !rule.tools.includes(input.toolName)) continue;
    const hit = matchRule(rule, input, paths, classes);
    if (hit === undefined || !state.matches(rule.when)) continue;
    return { rule: rule.id, message: renderMessage(rule, { slug: state.slug() || '<slug>', file: hit, rule: rule.id, tool: input.toolName }) };
  }
  return undefined;
}

/** The matched file ('' for a command rule), or undefined when the rule does not apply. */
function matchRule(rule: RuleConfig, input: HookInput, paths: { given: string; abs: string }[], classes: HarnessConfig['pathClasses']): string | undefined {
  if (rule.command !== undefined) {
    if (input.toolKind !== 'bash') return undefined;
    const re = new RegExp(rule.command);
    if (!input.command.split('\n').some((line) => re.test(line))) return undefined;
    if (!rule.paths) return '';
  }
  if (!rule.paths) return undefined;
  const test = compilePatterns(rule.paths, classes);
  const also: PathTest = rule.also ? compilePatterns(rule.also, classes) : () => true;
  const unless: PathTest = rule.unless ? compilePatterns(rule.unless, classes) : () => false;
  return paths.find((path) => test(path.abs) && also(path.abs) && !unless(path.abs))?.given;
}

export function renderMessage(rule: RuleConfig, values: Record<string, string>): string {
  // A command rule matches no file: its default text names the command pattern instead.
  const what = values.file ? '{tool} on {file}' : `this {tool} command matches /${rule.command ?? ''}/`;
  const text = rule.message === undefined
    ? `Blocked by baton rule '{rule}': ${what}. Fix: change the plan, or adjust the rule in baton.config.json.`
    : Array.isArray(rule.message) ? rule.message.join('\n') : rule.message;
  return text.replace(/\{(slug|file|rule|tool)\}/g, (_m, key: string) => values[key] ?? '');
}

function absolute(path: string, base: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}
