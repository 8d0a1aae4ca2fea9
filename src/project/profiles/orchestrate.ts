/** The `orchestrate` profile: the goal workflow's hooks (src/goal/hooks/), with no config of its own. */
import { absent } from '../../fs/absent.js';
import type { Profile } from './profile.js';

export const ORCHESTRATE: Profile = {
  name: 'orchestrate',
  summary: 'the goal workflow',
  kind: 'goal',
  events: ['SessionStart', 'Stop', 'SessionEnd'],
  // Decides "no active goal" with one stat; not even the goal root is created when there is no
  // pointer, so a project without goals stays untouched. Not existsSync: a pointer it cannot look
  // at (a link loop, a folder this user may not enter) is not "no goal"; the hooks name it.
  active: (env) => Boolean(env.HOME) && !absent(`${env.HOME}/.claude/orchestrate/active`),
};
