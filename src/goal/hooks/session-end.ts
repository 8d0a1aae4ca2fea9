import type { HandlerContext } from '../../harness/hooks/handlers/handler-context.js';
import type { HookOutcome } from '../../harness/hooks/types.js';
import { envNumber } from '../../core/env.js';
import { writePointer } from '../pointer.js';
import { appendLog, rotateLog } from '../log-file.js';
import { underStateLock } from '../state-file.js';
import type { GoalPayload } from './input.js';
import type { Scope } from './scope.js';

/**
 * SessionEnd, owner only: rotate, log the end with the transcript path, and on /clear hand
 * the goal off (`session=cleared:<id>`) so the next SessionStart with source clear claims it.
 */
export async function sessionEnd(scope: Scope, input: GoalPayload, { env }: HandlerContext): Promise<HookOutcome> {
  if (!scope.owner) return { log: [] };
  await underStateLock(scope.paths.state, () =>
    rotateLog(scope.paths.dir, envNumber(env, 'STATE_LOG_ROTATE_BYTES', 65536)),
  );
  const reason = input.reason === '' ? 'unknown' : input.reason;
  const transcript = input.transcriptPath === '' ? 'unknown' : input.transcriptPath;
  appendLog(scope.paths.log, `session ended (${reason}) goal:${scope.pointer.slug}\ntranscript: ${transcript}`);
  if (input.reason === 'clear') writePointer(scope.root, { ...scope.pointer, session: `cleared:${input.sessionId}` });
  return { log: [] };
}
