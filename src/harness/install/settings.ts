/**
 * Merging baton's entries into a Claude Code settings object without clobbering it: unrelated keys,
 * hooks and matchers stay where they are; baton's own commands (recognised by `baton.js ... hook` /
 * `statusline`, or any command running `baton hook`) are replaced, so a re-run is a no-op and a
 * moved checkout updates its paths. A foreign statusLine is kept unless the caller says to replace
 * it: a user may have one of their own they care about. Pure: the caller reads and writes files.
 */
import { BatonError } from '../../core/errors.js';
import type { FlatHookEntry, HookEntry } from './hooks.js';

type Settings = Record<string, unknown>;

export interface MergeRequest {
  hooks: Record<string, (HookEntry | FlatHookEntry)[]>;
  statusLine?: { type: 'command'; command: string; padding: number };
  replaceStatusLine?: boolean;
  /** Remove baton's entries and add nothing (`--remove`). */
  remove?: boolean;
  /** `env.BATON_SERVE = "1"`: the session's SessionStart starts `baton serve` (docs/serve.md). */
  serve?: boolean;
}

export interface MergeResult {
  settings: Settings;
  notes: string[];
}

const OURS = /\bbaton(?:\.js)?["']?\s+hook\s/;
const OUR_STATUSLINE = /\bbaton(?:\.js)?["']?\s+statusline\b/;

export function isObject(value: unknown): value is Settings {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural checks on the parts baton touches; anything else in the file is left alone. */
export function checkSettings(settings: unknown, file: string): asserts settings is Settings {
  const bad = (what: string) =>
    new BatonError('invalid', `${file}: ${what}; fix the file by hand, nothing was changed`);
  if (!isObject(settings)) throw bad('the top level must be a JSON object');
  if (settings.hooks === undefined) return;
  if (!isObject(settings.hooks)) throw bad('"hooks" must be an object of event name -> list');
  for (const [event, list] of Object.entries(settings.hooks)) {
    if (!Array.isArray(list)) throw bad(`"hooks.${event}" must be a list of {"matcher", "hooks": [...]}`);
    list.forEach((entry, i) => {
      if (!isObject(entry) || (entry.hooks !== undefined && !Array.isArray(entry.hooks)))
        throw bad(`"hooks.${event}[${i}]" must be an object with a "hooks" list`);
    });
  }
}

function isOurHook(hook: unknown): boolean {
  return isObject(hook) && typeof hook.command === 'string' && OURS.test(hook.command);
}

/** Existing entries minus baton's hooks; an entry left with no hooks is dropped. */
function withoutOurs(list: unknown[]): unknown[] {
  const kept: unknown[] = [];
  for (const entry of list) {
    // Cursor's flat entries are the hook itself.
    if (isOurHook(entry)) continue;
    if (!isObject(entry) || !Array.isArray(entry.hooks) || !entry.hooks.some(isOurHook)) {
      kept.push(entry);
      continue;
    }
    const hooks = entry.hooks.filter((hook) => !isOurHook(hook));
    if (hooks.length > 0) kept.push({ ...entry, hooks });
  }
  return kept;
}

export function mergeSettings(current: Settings, request: MergeRequest): MergeResult {
  const notes: string[] = [];
  const settings: Settings = { ...current };
  const hooks: Settings = { ...(isObject(current.hooks) ? current.hooks : {}) };
  for (const [event, list] of Object.entries(hooks)) {
    const kept = withoutOurs(list as unknown[]);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!request.remove) {
    for (const [event, entries] of Object.entries(request.hooks))
      hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), ...entries];
  }
  if (Object.keys(hooks).length > 0 || current.hooks !== undefined) settings.hooks = hooks;

  const env = isObject(current.env) ? current.env : undefined;
  if (request.remove && env?.BATON_SERVE === '1') {
    const { BATON_SERVE: _off, ...rest } = env;
    if (Object.keys(rest).length > 0) settings.env = rest;
    else delete settings.env;
  } else if (!request.remove && request.serve) settings.env = { ...env, BATON_SERVE: '1' };

  const line = current.statusLine;
  const lineIsOurs = isObject(line) && typeof line.command === 'string' && OUR_STATUSLINE.test(line.command);
  if (request.remove) {
    if (lineIsOurs) delete settings.statusLine;
  } else if (request.statusLine) {
    if (line === undefined || lineIsOurs || request.replaceStatusLine) settings.statusLine = request.statusLine;
    else notes.push('kept your existing statusLine; pass --replace-statusline to use baton statusline instead');
  }
  return { settings, notes };
}
