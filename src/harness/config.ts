/**
 * Validation and merging of `baton.config.json` over a built-in profile. Problems are collected
 * (`{path, message}`), never thrown one by one, so one run of `baton doctor` shows all of them.
 *
 * Merging: a project's rule with the id of a profile rule replaces it, other rules are checked
 * after the profile's; `disable` removes profile rules by id; path classes and documents merge by
 * name; `allow` lists are concatenated; classification merges by field (a project can widen one
 * enum of its profile); any other section replaces the profile's.
 */
import type { Issue } from '../core/errors.js';
import { checkLimits } from '../core/limits.js';
import type { ConfigInput, HarnessConfig, RuleConfig } from './config-types.js';
import { ENEO } from './profiles/eneo.js';

export const PROFILES: Record<string, HarnessConfig> = { eneo: ENEO };

const EMPTY: HarnessConfig = {
  stateDir: '.claude/state',
  documents: {},
  pathClasses: {},
  allow: [],
  rules: [],
  disable: [],
};
const SECTIONS = new Set([
  'profile',
  'stateDir',
  'documents',
  'pathClasses',
  'allow',
  'rules',
  'disable',
  'sessionStart',
  'audit',
  'wave',
  'snapshot',
  'stop',
  'lanes',
  'requiredFiles',
  'classification',
  'root',
  'statusline',
  'denyProtocol',
  'shell',
  'limits',
  '$schema',
  'description',
]);

export function validateConfig(raw: ConfigInput, profile?: string): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  for (const key of Object.keys(raw))
    if (!SECTIONS.has(key))
      add(key, `unknown section; expected one of ${[...SECTIONS].filter((s) => s !== '$schema').join(', ')}`);
  const name = profile ?? raw.profile;
  if (name !== undefined && (typeof name !== 'string' || (!(name in PROFILES) && name !== 'orchestrate')))
    add(
      'profile',
      `unknown profile ${JSON.stringify(name)}; built-in profiles: ${Object.keys(PROFILES).join(', ')}, orchestrate`,
    );
  if (raw.stateDir !== undefined && typeof raw.stateDir !== 'string') add('stateDir', 'must be a folder path string');
  checkStringLists(raw.pathClasses, 'pathClasses', add);
  if (raw.allow !== undefined && !isStringList(raw.allow)) add('allow', 'must be a list of globs or class names');
  if (raw.disable !== undefined && !isStringList(raw.disable)) add('disable', 'must be a list of rule ids');
  if (raw.documents !== undefined) {
    if (!isRecord(raw.documents)) add('documents', 'must be an object of name -> {"path": ...}');
    else
      for (const [doc, value] of Object.entries(raw.documents))
        if (!isRecord(value) || typeof value.path !== 'string') add(`documents.${doc}`, 'needs a "path" string');
  }
  if (raw.rules !== undefined) {
    if (!Array.isArray(raw.rules)) add('rules', 'must be a list of rules');
    else raw.rules.forEach((rule, i) => checkRule(rule as unknown, `rules[${i}]`, add));
  }
  if (raw.stop !== undefined) checkStop(raw.stop, add);
  checkStringLists(raw.lanes, 'lanes', add);
  checkClassification(raw.classification, add);
  checkRoot(raw.root, add);
  if (raw.denyProtocol !== undefined && raw.denyProtocol !== 'json' && raw.denyProtocol !== 'exit2')
    add('denyProtocol', 'must be "json" (the default) or "exit2" (reason on stderr, exit 2)');
  if (
    raw.shell !== undefined &&
    (!isRecord(raw.shell) ||
      Object.keys(raw.shell).some((k) => k !== 'strict') ||
      (raw.shell.strict !== undefined && typeof raw.shell.strict !== 'boolean'))
  )
    add('shell', 'must be {"strict": true|false}');
  issues.push(...checkLimits(raw.limits));
  if (raw.statusline !== undefined) {
    const { costEnv, gitTimeoutMs } = isRecord(raw.statusline)
      ? raw.statusline
      : { costEnv: 0, gitTimeoutMs: undefined };
    if (
      (costEnv !== undefined && typeof costEnv !== 'string') ||
      (gitTimeoutMs !== undefined && !(Number.isInteger(gitTimeoutMs) && (gitTimeoutMs as number) > 0))
    ) {
      add('statusline', 'must be {"costEnv": "ENV_VAR_NAME", "gitTimeoutMs": <positive integer>}');
    }
  }
  return issues;
}

function checkStop(value: unknown, add: (path: string, message: string) => void): void {
  if (!isRecord(value))
    return add(
      'stop',
      'must be {"commands": [...], "presets": ["ratchet", "typecheck"], "waveGate": "incomplete"|"blocked"|"off"}',
    );
  const { commands, presets, waveGate } = value;
  if (
    commands !== undefined &&
    (!Array.isArray(commands) || commands.some((c) => !isRecord(c) || typeof c.run !== 'string'))
  )
    add('stop.commands', 'must be a list of {"name": ..., "run": "shell command", "timeoutSec": n}');
  if (presets !== undefined && (!isStringList(presets) || presets.some((p) => p !== 'ratchet' && p !== 'typecheck')))
    add('stop.presets', 'must be a list of built-in presets: "ratchet", "typecheck"');
  if (waveGate !== undefined && !['incomplete', 'blocked', 'off'].includes(waveGate as string))
    add('stop.waveGate', 'must be "incomplete", "blocked" or "off"');
}

function checkClassification(value: unknown, add: (path: string, message: string) => void): void {
  if (value === undefined) return;
  if (!isRecord(value))
    return add('classification', 'must be an object of field -> list of allowed values or {"min": n, "max": n}');
  for (const [field, rule] of Object.entries(value)) {
    if (rule === null) continue; // lifts a profile's rule for this field
    const list = Array.isArray(rule) && rule.every((v) => typeof v === 'string' || typeof v === 'number');
    const range =
      isRecord(rule) && Object.keys(rule).every((k) => (k === 'min' || k === 'max') && Number.isInteger(rule[k]));
    if (!list && !range)
      add(`classification.${field}`, 'must be a list of allowed values or an integer range {"min": 1, "max": 4}');
  }
}

function checkRoot(value: unknown, add: (path: string, message: string) => void): void {
  if (value === undefined) return;
  if (!isRecord(value) || !isStringList(value.markers))
    return add('root', 'must be {"markers": [paths], "nested": [folders], "fallbacks": [absolute folders]}');
  if (value.nested !== undefined && !isStringList(value.nested))
    add('root.nested', 'must be a list of folder names relative to the start folder');
  if (
    value.fallbacks !== undefined &&
    (!isStringList(value.fallbacks) || value.fallbacks.some((f) => !f.startsWith('/')))
  )
    add('root.fallbacks', 'must be a list of absolute folders');
}

function checkRule(rule: unknown, at: string, add: (path: string, message: string) => void): void {
  if (!isRecord(rule)) return add(at, 'must be an object with "id", "on" and a "paths" or "command" matcher');
  if (typeof rule.id !== 'string' || rule.id === '')
    add(`${at}.id`, 'needs a non-empty id (it names the rule in deny messages)');
  if (!['edit', 'bash', 'both'].includes(rule.on as string)) add(`${at}.on`, 'must be "edit", "bash" or "both"');
  if (rule.paths === undefined && rule.command === undefined)
    add(at, 'needs "paths" (classes or globs) or "command" (a regular expression)');
  for (const key of ['paths', 'also', 'unless', 'tools'] as const)
    if (rule[key] !== undefined && !isStringList(rule[key])) add(`${at}.${key}`, 'must be a list of strings');
  if (rule.command !== undefined) {
    if (typeof rule.command !== 'string') add(`${at}.command`, 'must be a regular expression string');
    else {
      try {
        new RegExp(rule.command);
      } catch (error) {
        add(`${at}.command`, `is not a valid regular expression (${(error as Error).message})`);
      }
    }
  }
  if (rule.when !== undefined) {
    const when = rule.when;
    if (!isRecord(when) || typeof when.field !== 'string' || !isStringList(when.in))
      add(`${at}.when`, 'must be {"field": "tdd_phase", "in": ["GREEN"]} (optionally "doc": "task")');
  }
  if (rule.bulkDelete !== undefined && typeof rule.bulkDelete !== 'boolean')
    add(`${at}.bulkDelete`, 'must be true or false');
  if (rule.message !== undefined && typeof rule.message !== 'string' && !isStringList(rule.message))
    add(`${at}.message`, 'must be a string or a list of lines');
}

/** The effective configuration: the profile (if any) with the project's config over it. */
export function mergeConfig(raw: ConfigInput, profile?: string): HarnessConfig {
  const name = profile ?? (typeof raw.profile === 'string' ? raw.profile : undefined);
  const base = (name && PROFILES[name]) || EMPTY;
  const disabled = new Set([...(base.disable ?? []), ...((raw.disable as string[] | undefined) ?? [])]);
  const own = (raw.rules as RuleConfig[] | undefined) ?? [];
  const ownIds = new Set(own.map((rule) => rule.id));
  const replaced = base.rules.map((rule) =>
    ownIds.has(rule.id) ? (own.find((r) => r.id === rule.id) as RuleConfig) : rule,
  );
  const added = own.filter((rule) => !base.rules.some((r) => r.id === rule.id));
  const merged: HarnessConfig = {
    ...base,
    ...(raw as Partial<HarnessConfig>),
    stateDir: (raw.stateDir as string | undefined) ?? base.stateDir,
    documents: { ...base.documents, ...(raw.documents as HarnessConfig['documents'] | undefined) },
    pathClasses: { ...base.pathClasses, ...(raw.pathClasses as HarnessConfig['pathClasses'] | undefined) },
    allow: [...base.allow, ...((raw.allow as string[] | undefined) ?? [])],
    classification: { ...base.classification, ...(raw.classification as HarnessConfig['classification'] | undefined) },
    // A project's commands or gate setting keep the profile's other Stop settings.
    ...(base.stop || raw.stop ? { stop: { ...base.stop, ...(raw.stop as HarnessConfig['stop'] | undefined) } } : {}),
    rules: [...replaced, ...added].filter((rule) => !disabled.has(rule.id)),
    disable: [...disabled],
  };
  if (name !== undefined) merged.profile = name;
  return merged;
}

function checkStringLists(value: unknown, at: string, add: (path: string, message: string) => void): void {
  if (value === undefined) return;
  if (!isRecord(value)) return add(at, 'must be an object of name -> list of strings');
  for (const [key, list] of Object.entries(value))
    if (!isStringList(list)) add(`${at}.${key}`, 'must be a list of strings');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
