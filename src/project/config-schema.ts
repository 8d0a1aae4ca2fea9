/**
 * baton.config.json checked against schemas/baton.config.schema.json (compiled ahead of time by
 * scripts/compile-schemas.mjs, so no Ajv at run time). Every problem is collected, one per place,
 * as `{path, message}`: the JSON path (`rules[0].on`) and what was expected there, in the words
 * of the schema's `errorMessage` where it has one (editors show the same text).
 */
import type { ErrorObject } from 'ajv';
import { BatonError, type Issue } from '../core/errors.js';
import type { BatonConfig, LimitsConfig } from '../generated/types/baton-config.js';
import { config as configValidator, limits as limitsValidator } from '../generated/config-validator.js';
import { CONFIG_FILE, configRefusal } from './config-file.js';

export { configRefusal } from './config-file.js';

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A config checked against the schema: the typed config, or every problem it has. */
export type CheckedConfig = { config: BatonConfig; issues: [] } | { config?: undefined; issues: Issue[] };

export function checkConfig(raw: unknown): CheckedConfig {
  const regexes = regexIssues(raw);
  if (configValidator(raw) && regexes.length === 0) return { config: raw, issues: [] };
  return { issues: [...schemaIssues(configValidator, raw, []), ...regexes] };
}

/** The `limits` section of a project's config; bad values refuse the call (usage, exit 2) rather than being ignored. */
export function projectLimits(config: Record<string, unknown>): LimitsConfig | undefined {
  const { limits } = config;
  if (limits === undefined || limitsValidator(limits)) return limits;
  const issues = schemaIssues(limitsValidator, limits, ['limits']);
  throw new BatonError('usage', configRefusal(CONFIG_FILE, issues), { issues });
}

function schemaIssues(validate: Validator, value: unknown, at: (string | number)[]): Issue[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // A failed anyOf or not speaks for its place as a whole: its branches' errors would each
  // describe one shape the value does not have, which is noise.
  const whole = errors.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'not') && e.parentSchema?.errorMessage);
  const covered = (e: ErrorObject) =>
    whole.some(
      (w) => w !== e && (e.instancePath === w.instancePath || e.instancePath.startsWith(`${w.instancePath}/`)),
    );
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const error of errors) {
    if (covered(error)) continue;
    const issue = describe(error, value, at);
    const key = `${issue.path}\n${issue.message}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
  }
  return issues;
}

function describe(error: ErrorObject, root: unknown, at: (string | number)[]): Issue {
  const segments = [...at, ...pointer(error.instancePath, root)];
  const params = error.params as Record<string, unknown>;
  const schema = (error.parentSchema ?? {}) as { errorMessage?: string; properties?: Record<string, unknown> };
  if (error.keyword === 'additionalProperties') {
    const known = Object.keys(schema.properties ?? {}).filter((k) => k !== '$schema');
    const what = segments.length === 0 ? 'section' : 'key';
    return {
      path: jsonPath([...segments, String(params.additionalProperty)]),
      message: `unknown ${what}; expected one of ${known.join(', ')}`,
    };
  }
  if (error.keyword === 'required')
    return { path: jsonPath([...segments, String(params.missingProperty)]), message: 'is required but missing' };
  return {
    path: jsonPath(segments),
    message: `expected ${schema.errorMessage ?? expected(error, params)}, found ${shown(error.data)}`,
  };
}

function expected(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return String(params.type).replace(/,/g, ' or ');
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'pattern':
      return `text matching ${String(params.pattern)}`;
    case 'minimum':
    case 'maximum':
      return `a number ${String(params.comparison)} ${String(params.limit)}`;
    default:
      return error.message ?? error.keyword;
  }
}

/** A found value, short enough for a one-line message. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The segments of a JSON Pointer, with list indexes as numbers (they print as `[0]`). */
function pointer(path: string, root: unknown): (string | number)[] {
  const segments: (string | number)[] = [];
  let node = root;
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    segments.push(Array.isArray(node) ? Number(key) : key);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return segments;
}

function jsonPath(segments: (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out || '(the file)';
}

/** What the schema cannot say: a rule's `command` must compile as a regular expression. */
function regexIssues(raw: unknown): Issue[] {
  const rules = isRecord(raw) && Array.isArray(raw.rules) ? (raw.rules as unknown[]) : [];
  const issues: Issue[] = [];
  rules.forEach((rule, i) => {
    const command = isRecord(rule) ? rule.command : undefined;
    if (typeof command !== 'string') return;
    try {
      new RegExp(command);
    } catch (error) {
      issues.push({
        path: `rules[${i}].command`,
        message: `expected a valid regular expression, found ${shown(command)} (${(error as Error).message})`,
      });
    }
  });
  return issues;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
