/**
 * What a built-in profile is: everything baton knows of it, in the profile's own module
 * (profiles/<name>.ts), listed once in profiles/registry.ts. The hook front reads `kind`, `events`
 * and `active` before it loads the engine; project discovery reads `root`; config.ts merges a
 * project's baton.config.json over `config`.
 */
import type { HarnessConfig } from '../config.js';
import type { RootConfig } from '../root.js';

export interface Profile {
  name: string;
  /** What it is, in a few words: the config schema's `profile` description lists it (npm run generate). */
  summary: string;
  /**
   * - `harness`: the policy/state handlers (harness/hooks/handlers/*.ts), configured by
   *   baton.config.json over the profile's `config`.
   * - `goal`: the orchestrate workflow's goal hooks (goal/hooks/*.ts). They need no config file,
   *   and are silent by contract: exit 0, nothing on stderr, whatever happens.
   */
  kind: 'harness' | 'goal';
  /**
   * The hook events it handles (names from harness/hooks/events.ts; test/install/registry.test.ts holds
   * them to the registry and to what `config`'s sections turn on). An event a profile ignores
   * returns before the engine loads.
   */
  events: readonly string[];
  /** false: nothing to do in this environment (checked before anything else loads). */
  active?: (env: Record<string, string | undefined>) => boolean;
  /** Root markers (docs/profiles.md) a project's own `root` section replaces. */
  root?: RootConfig;
  /** The configuration a project's baton.config.json is merged over; none for a goal profile. */
  config?: HarnessConfig;
}
