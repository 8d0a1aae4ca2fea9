/**
 * SessionStart: the owner gets the goal's context; a session started by /clear takes over
 * a goal its predecessor handed off (`session=cleared:<id>`). Everyone else: silence.
 */
import type { HandlerContext } from '../../harness/hooks/handlers/handler-context.js';
import type { HookOutcome } from '../../harness/hooks/types.js';
import { envNumber } from '../../core/env.js';
import { toolNames } from '../goal-paths.js';
import { writePointer } from '../pointer.js';
import { rotateLog } from '../log-file.js';
import { underStateLock } from '../state-file.js';
import { contextBlock } from './context-block.js';
import type { GoalPayload } from './input.js';
import type { Scope } from './scope.js';

const MODE_LINE = 'Orchestrate mode is active: load the /orchestrate skill with "resume" before anything else.';

export async function sessionStart(scope: Scope, input: GoalPayload, { env }: HandlerContext): Promise<HookOutcome> {
  if (!scope.owner) {
    const handOff = input.source === 'clear' && input.sessionId !== '' && scope.pointer.session.startsWith('cleared:');
    if (!handOff) return { log: [] };
    writePointer(scope.root, { ...scope.pointer, session: input.sessionId });
  }
  await underStateLock(scope.paths.state, () =>
    rotateLog(scope.paths.dir, envNumber(env, 'STATE_LOG_ROTATE_BYTES', 65536)),
  );
  const source = input.source === '' ? 'unknown' : input.source;
  const block = contextBlock(scope, {
    who: `the SessionStart hook; source=${source}`,
    mode: MODE_LINE,
    withHead: input.source !== 'resume',
    transcriptPath: input.transcriptPath,
    env: env,
    names: toolNames(env),
  });
  return { context: block, title: `orchestrate: ${scope.pointer.slug}`, log: [] };
}
