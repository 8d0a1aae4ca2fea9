/**
 * The gate applied to baton's own writes. baton is a command every agent may run, so whatever it
 * writes beside a document (a mirror file, an imported key) is judged like an agent's write: the
 * project's rules whose condition holds now (tests in GREEN, `.env`, ...) and baton's state rule
 * (state-files.ts), each on the path as given and as it really is once symlinks are followed.
 * A config that does not parse or validate protects everything: the rules cannot be read, so
 * nothing baton writes beside a document can be judged safe (fail closed).
 */
import { join, resolve } from 'node:path';
import { realTarget } from '../../fs/confine.js';
import { CONFIG_FILE } from '../config-file.js';
import { configRefusal } from '../config-file.js';
import { mergeConfig, validateConfig, type HarnessConfig, type RuleConfig } from '../config.js';
import type { ProjectContext } from '../project-context.js';
import { compilePatterns, ruleTest } from './glob.js';
import { StateReader, type SharedDocuments } from './state.js';
import { stateRule, STATE_RULE } from './state-files.js';

export interface Protected {
  /** The rule's id (`baton-state` for baton's own state, `baton-config` for a broken config). */
  rule: string;
  message: string;
}

export interface Protection {
  /**
   * The rule protecting `path` (absolute) now, or undefined. `exempt` are baton-state paths the
   * caller writes as baton itself (a document's own configured mirror, a configured document).
   */
  check(path: string, exempt?: { state?: readonly string[]; all?: readonly string[] }): Protected | undefined;
  /** A rule with a `when` condition that holds now (the task is in GREEN, say), or undefined. */
  activePhase(): Protected | undefined;
  config: HarnessConfig | undefined;
}

export function protection(project: ProjectContext, shared?: SharedDocuments): Protection {
  const config = effective(project);
  if (typeof config === 'string') {
    const refusal = { rule: 'baton-config', message: config };
    return { check: () => refusal, activePhase: () => refusal, config: undefined };
  }
  const root = project.root;
  const state = new StateReader(config, root, shared);
  const allowed = compilePatterns(config.allow, config.pathClasses);
  // Command-only rules judge a shell line, and bulk-delete rules a recursive delete: neither is a write of one file.
  const rules = [...config.rules, stateRule(config, root)]
    .filter((rule) => rule.paths && rule.command === undefined && !rule.bulkDelete)
    .map((rule) => ({ rule, test: ruleTest(rule, config.pathClasses) }));
  return {
    config,
    check(path, exempt = {}) {
      const forms = [...new Set([resolve(path), real(path)])];
      if (forms.some((form) => exempt.all?.some((file) => same(file, form)))) return undefined;
      for (const { rule, test } of rules) {
        // The allow-list does not exempt baton's own state (as in the gate).
        const open = (form: string) =>
          rule.id === STATE_RULE ? !!exempt.state?.some((file) => same(file, form)) : allowed(form);
        const hit = forms.find((form) => !open(form) && test(form));
        if (hit !== undefined && state.matches(rule.when)) return { rule: rule.id, message: describe(rule, hit) };
      }
      return undefined;
    },
    activePhase() {
      const rule = config.rules.find((candidate) => candidate.when !== undefined && state.matches(candidate.when));
      return rule && { rule: rule.id, message: `the gate's rule '${rule.id}' is active now` };
    },
  };
}

function effective(project: ProjectContext): HarnessConfig | string {
  const file = join(project.configRoot, CONFIG_FILE);
  if (project.file.state === 'invalid')
    return `${project.file.error}; until it is fixed baton writes nothing beside a document (mirrors, imports)`;
  // No file: `{}`, which the schema accepts (every section is optional), is not run through the
  // config's validator; a profile named by the caller is still checked.
  const { config, issues } =
    project.file.state === 'missing' && project.profile === undefined && Object.keys(project.config).length === 0
      ? { config: {}, issues: [] }
      : validateConfig(project.config, project.profile);
  if (!config)
    return `${configRefusal(file, issues)}; until then baton writes nothing beside a document (mirrors, imports)`;
  return mergeConfig(config, project.profile);
}

function describe(rule: RuleConfig, file: string): string {
  if (rule.id === STATE_RULE)
    return `${file} is baton state or its rules (.baton/ metadata, a configured document or mirror, baton.config.json or a schema file it names)`;
  return `${file} is protected by the gate's rule '${rule.id}' now`;
}

function real(path: string): string {
  try {
    return realTarget(path);
  } catch {
    return resolve(path);
  }
}

function same(a: string, b: string): boolean {
  return resolve(a) === b || real(a) === b;
}
