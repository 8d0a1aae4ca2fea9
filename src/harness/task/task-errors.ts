/**
 * How `baton task` reports errors: with the exit codes and `[state] ` lines of the Eneo
 * task-state helpers it stands in for (`compat/eneo/lib/state.sh` passes them through), so scripts
 * written against those helpers keep working.
 */
import {
  BatonError,
  COMPAT_EXITS,
  EXIT,
  inFace,
  isBatonError,
  type CompatFace,
  type ErrorCode,
} from '../../core/errors.js';

export const STATE_FACE: CompatFace = { lead: '[state] ', codes: COMPAT_EXITS.taskState };

/** A refusal as the helpers report it: their exit code, and their usage lines without the `[state] ` lead. */
export function stateExit(code: ErrorCode, exitCode: number, message: string): BatonError {
  return new BatonError(code, message, {
    compat: { exitCode, lead: message.startsWith('usage:') ? '' : STATE_FACE.lead },
  });
}

/** An engine error in the helpers' terms: lock timeouts and jq failures keep the helpers' wording. */
export function stateError(error: unknown, expr?: string): BatonError {
  if (!isBatonError(error))
    return stateExit('internal', EXIT.refused, `internal error: ${(error as Error)?.message ?? String(error)}`);
  if (error.compat) return error;
  if (error.code === 'lock_timeout') return stateExit('lock_timeout', EXIT.refused, 'timed out acquiring lock: state');
  if (expr !== undefined && ['jq_syntax', 'jq_runtime', 'jq_unsupported'].includes(error.code)) {
    return stateExit(error.code, EXIT.refused, `jq expression failed: ${expr}\n[state] ${error.message}`);
  }
  return inFace(error, STATE_FACE);
}
