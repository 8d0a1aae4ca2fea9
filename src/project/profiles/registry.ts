/**
 * The built-in profiles, by name: adding one is its module beside this file and one entry here
 * (`npm run generate` writes the config schema's `profile` enum and description from this list).
 * The hook front loads this on every event, so a profile module holds data and imports nothing
 * heavy.
 */
import { ENEO } from './eneo.js';
import { ORCHESTRATE } from './orchestrate.js';
import type { Profile } from './profile.js';
import { TDD } from './tdd.js';

export type { Profile } from './profile.js';

export const PROFILES: Readonly<Record<string, Profile>> = { eneo: ENEO, orchestrate: ORCHESTRATE, tdd: TDD };

/**
 * The profile assumed where a project names none but baton needs a layout: `baton task` keeps
 * the task document where it says, the status line and the dashboard find the project by its
 * root markers. Its rules are not applied to a project that did not choose it.
 */
export const DEFAULT_PROFILE = 'eneo';

/** The built-in profile of that name; undefined for any other string (`toString` included). */
export function profileNamed(name: string | undefined): Profile | undefined {
  return name !== undefined && Object.hasOwn(PROFILES, name) ? PROFILES[name] : undefined;
}
