/** The `orchestrate` profile: the goal workflow's hooks (src/goal/hooks/), with no config of its own. */
import { existsSync } from 'node:fs';
import type { Profile } from './profile.js';

export const ORCHESTRATE: Profile = {
  name: 'orchestrate',
  summary: 'the goal workflow',
  kind: 'goal',
  events: ['SessionStart', 'Stop', 'SessionEnd'],
  // Decides "no active goal" with one stat; not even the goal root is created when there is no
  // pointer, so a project without goals stays untouched.
  active: (env) => Boolean(env.HOME) && existsSync(`${env.HOME}/.claude/orchestrate/active`),
};
