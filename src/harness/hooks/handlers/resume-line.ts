import { resolve } from 'node:path';
import { StateReader } from '../../../project/policy/state.js';
import type { HookOutcome } from '../types.js';
import { present } from '../../../core/json.js';
import type { HandlerContext } from './handler-context.js';
import { readStateText } from '../../task/state-read.js';
import { isReadRefusal } from '../../../fs/bounded-read.js';
import { isBatonError } from '../../../core/errors.js';

/**
 * SessionStart: one resume line for the model, built from the parsed JSON field by
 * field, so an empty field can never shift the others (the original's tab-split bug). The
 * same line is printed for every source, so after `compact` the state is injected again.
 */
export async function sessionStart({ config, root, documents }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const state = new StateReader(config, root, documents);
  const prefix = config.sessionStart?.prefix ?? '[baton]';
  // A task or phase mirror that is there but cannot be read (a link loop, EACCES) is said in the
  // context, naming the file and the fix: the model would otherwise start with no resume line and
  // no word why, then meet the gates' denials. The event is ungated, so it goes on (exit 0).
  const cannot: string[] = [];
  const readable = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!isBatonError(error, 'io')) throw error;
      cannot.push(`${prefix} the task state cannot be read: ${error.message}`);
      return undefined;
    }
  };
  const doc = readable(() => state.doc('task'));
  const lines: string[] = [];
  if (doc && present(doc.slug) && typeof doc.slug === 'string') lines.push(resumeLine(doc));
  const contextFile = config.sessionStart?.contextFile;
  if (contextFile) {
    const path = resolve(root, contextFile);
    try {
      const lines = (readStateText(path).match(/\n/g) ?? []).length;
      outcome.log.push(`${prefix} loaded ${contextFile.split('/').pop()} (${lines} lines) from ${path}`);
    } catch (error) {
      if (isReadRefusal(error)) throw error;
      // no context file configured on disk: nothing to say
    }
  }
  const mirror = config.documents.task?.mirrors?.tdd_phase;
  if (mirror && cannot.length === 0) {
    const phase = readable(() => state.field({ field: 'tdd_phase', in: [] }));
    if (phase !== undefined && phase !== mirror.empty) outcome.log.push(`${prefix} current TDD phase: ${phase}`);
  }
  lines.push(...cannot);
  outcome.log.push(...cannot);
  if (lines.length > 0) outcome.context = lines.join('\n');
  return outcome;
}

function resumeLine(doc: Record<string, unknown>): string {
  const parts = [`Resume: ${String(doc.slug)}`];
  if (present(doc.phase) && present(doc.phase_total))
    parts.push(`Phase ${String(doc.phase)}/${String(doc.phase_total)}`);
  if (present(doc.wave) && present(doc.wave_total)) parts.push(`Wave ${String(doc.wave)}/${String(doc.wave_total)}`);
  const tdd = present(doc.tdd_phase) ? String(doc.tdd_phase) : 'FREE';
  if (tdd !== 'FREE') parts.push(tdd);
  if (present(doc.next_hint)) parts.push(`Next: ${String(doc.next_hint)}`);
  return parts.join(' · ');
}
