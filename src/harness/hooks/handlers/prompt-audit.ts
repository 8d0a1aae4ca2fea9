import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../../../fs/atomic.js';
import { appendNoFollow, confine, mkdirInside } from '../../../fs/confine.js';
import { StateReader } from '../../../project/policy/state.js';
import type { HookOutcome } from '../types.js';
import { isoSeconds } from '../../../core/iso-time.js';
import { hookLockTimeoutMs, type HandlerContext } from './handler-context.js';
import { isStopBlockReason } from './stop-gate.js';
import { readStateText } from '../../task/state-read.js';

/**
 * UserPromptSubmit audit: one JSONL record with the prompt's hash and length, never
 * the prompt. Nothing is created in a project without a task: the stats folder only when there is
 * a slug, and the task stamp refresh only touches an existing task file (the
 * original created `.claude/state` in every project).
 */
export async function promptAudit({ input, config, root, env, now, documents }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const audit = config.audit;
  if (!audit) return outcome;
  const state = new StateReader(config, root, documents);
  const slug = state.slug();
  if (slug)
    outcome.log.push(
      `${audit.prefix} current slug: ${slug} (phase=${state.field({ field: 'tdd_phase', in: [] }) || 'FREE'})`,
    );
  const file = resolve(root, audit.file);
  const prompt = input.prompt.replace(/\n+$/, '');
  if (isTaskNotification(prompt)) {
    outcome.log.push(`${audit.prefix} background task notification; not counted as a user prompt`);
    return outcome;
  }
  // A subagent's task is its parent's text, not the user's: a payload that names an agent_id is
  // a subagent's (Codex 0.171 sends none for a spawn_agent subagent, measured; its hooks carry
  // the subagent's agent_id, as Claude Code's do).
  if (input.agentId !== '') {
    outcome.log.push(`${audit.prefix} a subagent's prompt (agent ${input.agentId}); not counted as a user prompt`);
    return outcome;
  }
  if (prompt !== '' && isStopBlockReason(env, input.sessionId, root, prompt)) {
    outcome.log.push(`${audit.prefix} the Stop block's reason sent back by the host; not counted as a user prompt`);
    return outcome;
  }
  if (input.prompt !== '' && (slug || existsSync(dirname(file)))) {
    confine(root, file, 'audit log');
    if (slug) mkdirInside(root, dirname(file), 'audit folder');
    const record = {
      ts: isoSeconds(now),
      slug,
      hash: createHash('sha256').update(prompt, 'utf8').digest('hex').slice(0, 16),
      len: [...prompt].length,
    };
    appendNoFollow(file, `${JSON.stringify(record)}\n`);
    trim(file, audit.maxLines);
  }
  const task = config.documents.task;
  if (task && (documents ? documents.get('task') !== undefined : existsSync(resolve(root, task.path))))
    await refreshStamp(task.path, root, env, outcome);
  return outcome;
}

/**
 * Claude Code reports a finished background agent as a UserPromptSubmit whose prompt is a
 * `<task-notification>` element: the host speaking, not the user, so it is neither audited nor
 * counted as activity on the task.
 */
function isTaskNotification(prompt: string): boolean {
  return /^\s*<task-notification>/.test(prompt) && prompt.includes('</task-notification>');
}

/** Keeps the last `max` lines, by atomic replace, only once the file has grown past them. */
function trim(file: string, max: number): void {
  const text = readStateText(file);
  const lines = text.split('\n');
  if (lines.length - 1 <= max) return;
  writeFileAtomic(file, `${lines.slice(-max - 1).join('\n')}`, { durable: false });
}

async function refreshStamp(path: string, root: string, env: NodeJS.ProcessEnv, outcome: HookOutcome): Promise<void> {
  const { openDoc } = await import('../../../doc/open.js');
  try {
    await openDoc(path, { cwd: root, env: { ...env, BATON_ROOT: root }, lockTimeoutMs: hookLockTimeoutMs(env) }).update(
      '.',
      {},
      { ifExists: true, writer: 'prompt-audit' },
    );
  } catch (error) {
    outcome.log.push(`[audit] task stamp not refreshed: ${(error as Error).message}`);
  }
}
