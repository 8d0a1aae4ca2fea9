/**
 * What the hook front knows of each built-in profile without loading it: the events it handles
 * (from the registry in events.ts) and a cheap test of whether there is anything to do at all.
 * An event a profile ignores, or a profile with nothing to do, returns before the engine loads.
 *
 * - `harness`: the policy/state handlers (handlers/*.ts), configured by baton.config.json over
 *   the profile's defaults.
 * - `goal`: the orchestrate workflow's goal hooks (goal/hooks/*.ts). They need no config file,
 *   decide "no active goal" with one stat, and are silent by contract:
 *   exit 0, nothing on stderr, whatever happens.
 */
import { existsSync } from 'node:fs';
import type { EventName } from '../events.js';

export interface ProfileFront {
  kind: 'harness' | 'goal';
  events: readonly EventName[];
  /** false: nothing to do in this environment (checked before anything else loads). */
  active?: (env: NodeJS.ProcessEnv) => boolean;
}

export const PROFILE_FRONTS: Readonly<Record<string, ProfileFront>> = {
  eneo: {
    kind: 'harness',
    events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'SubagentStop', 'PreCompact', 'Stop'],
  },
  orchestrate: {
    kind: 'goal',
    events: ['SessionStart', 'Stop', 'SessionEnd'],
    // Not even the goal root is created when there is no pointer: a project without goals stays untouched.
    active: (env) => Boolean(env.HOME) && existsSync(`${env.HOME}/.claude/orchestrate/active`),
  },
};

/** A project with a config but no profile: only the events its sections turn on. */
export const CONFIG_ONLY: ProfileFront = { kind: 'harness', events: [] };
