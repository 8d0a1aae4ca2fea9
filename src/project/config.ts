/**
 * `baton.config.json` over a built-in profile. Its shape is schemas/baton.config.schema.json,
 * whose generated types are the config's; problems are collected (`{path, message}`), never
 * thrown one by one, so one run of `baton doctor` shows all of them.
 *
 * Merging: a project's rule with the id of a profile rule replaces it, other rules are checked
 * after the profile's; `disable` removes profile rules by id; path classes and documents merge by
 * name; `allow` lists are concatenated; classification merges by field (a project can widen one
 * enum of its profile); any other section replaces the profile's.
 */
import type { Issue } from '../core/errors.js';
import type { BatonConfig } from '../generated/types/baton-config.js';
import { checkConfig, type CheckedConfig } from './config-schema.js';
import { PROFILES, profileNamed } from './profiles/registry.js';

/**
 * The effective configuration: a profile with the file over it, the sections every hook reads
 * filled in. Its profile may be one `baton hook --profile` named.
 */
export type HarnessConfig = Omit<BatonConfig, 'profile'> &
  Required<Pick<BatonConfig, 'stateDir' | 'documents' | 'pathClasses' | 'allow' | 'rules' | 'disable'>> & {
    profile?: string;
  };

export type { BatonConfig, ClassRule, Condition, RuleConfig, StopCommand } from '../generated/types/baton-config.js';

const EMPTY: HarnessConfig = {
  stateDir: '.claude/state',
  documents: {},
  pathClasses: {},
  allow: [],
  rules: [],
  disable: [],
};

/**
 * Every problem of a config: the schema's, and an unknown profile given on the command line
 * (`baton hook --profile`), which the file's schema cannot see.
 */
export function validateConfig(raw: unknown, profile?: string): CheckedConfig {
  const checked = checkConfig(raw);
  if (profile === undefined || profileNamed(profile)) return checked;
  const issue: Issue = {
    path: 'profile',
    message: `unknown profile ${JSON.stringify(profile)}; built-in profiles: ${Object.keys(PROFILES).join(', ')}`,
  };
  return { issues: [...checked.issues.filter((i) => i.path !== 'profile'), issue] };
}

/** The effective configuration: the profile (if any) with the project's config over it. */
export function mergeConfig(raw: BatonConfig, profile?: string): HarnessConfig {
  const name = profile ?? raw.profile;
  const base = profileNamed(name)?.config ?? EMPTY;
  const disabled = new Set([...base.disable, ...(raw.disable ?? [])]);
  const own = raw.rules ?? [];
  const replaced = base.rules.map((rule) => own.find((r) => r.id === rule.id) ?? rule);
  const added = own.filter((rule) => !base.rules.some((r) => r.id === rule.id));
  const merged: HarnessConfig = {
    ...base,
    ...raw,
    stateDir: raw.stateDir ?? base.stateDir,
    documents: { ...base.documents, ...raw.documents },
    pathClasses: { ...base.pathClasses, ...raw.pathClasses },
    allow: [...base.allow, ...(raw.allow ?? [])],
    classification: { ...base.classification, ...raw.classification },
    // A project's commands or gate setting keep the profile's other Stop settings.
    ...(base.stop || raw.stop ? { stop: { ...base.stop, ...raw.stop } } : {}),
    rules: [...replaced, ...added].filter((rule) => !disabled.has(rule.id)),
    disable: [...disabled],
  };
  if (name !== undefined) merged.profile = name;
  return merged;
}
