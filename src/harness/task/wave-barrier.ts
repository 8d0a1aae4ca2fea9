/**
 * The SubagentStop wave barrier. Each returning agent's `DONE|artifact` or
 * `BLOCKED|reason` is counted once per agent_id into `wave.json` (the original's shape and
 * spellings), and the task document's wave_status / active_agents follow, both inside one
 * hold of the state lock so that many SubagentStop processes at once count exactly. It never
 * blocks the host and never writes the output of a failed step: a corrupt wave.json is refused, not rewritten.
 */
import { existsSync } from 'node:fs';
import { absent, noEntry, unreadable } from '../../fs/absent.js';
import { resolve } from 'node:path';
import { isBatonError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { confine } from '../../fs/confine.js';
import type { HandlerContext } from '../hooks/handlers/handler-context.js';
import { withStateLock } from './state-lock.js';
import type { HookOutcome } from '../hooks/types.js';
import { readStateText } from './state-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';

export interface WaveFile {
  wave: number;
  expected: number;
  done: number;
  status: string;
  seen_agents: string[];
  completed_artifacts: string[];
  blocked_agents: string[];
  [extra: string]: unknown;
}

export type AgentResult = { kind: 'done'; artifact: string } | { kind: 'blocked'; reason: string };

/** A reason is one line for the orchestrator and the dashboard; wave.json stays small. */
const MAX_REASON = 500;

const READY = new Set(['ready-for-next-wave', 'ready_for_next_wave']);

/**
 * Why a message is not a result, for the debug log: a marker the agent put on a later line, or
 * in lower case, is the mistake worth naming (the Eneo rule counts only a message that starts
 * with the marker, so prose before it never turns a draft into a result).
 */
export function notCounted(message: string): string {
  const text = message.trim();
  if (text === '') return 'the message is empty (no last_assistant_message)';
  const lines = text.split('\n');
  const later = lines.findIndex((line, index) => index > 0 && /^\s*(DONE|BLOCKED)\|/.test(line));
  if (later > 0) {
    const marker = /(DONE|BLOCKED)\|/.exec(lines[later] as string)?.[0] ?? 'DONE|';
    return `its ${marker} marker is on line ${later + 1}; a result must start the message (its first line, after whitespace)`;
  }
  if (/^(done|blocked)\|/i.test(text)) return 'markers are case-sensitive: start the message with DONE| or BLOCKED|';
  return `the message does not start with DONE| or BLOCKED| (it starts ${JSON.stringify(text.slice(0, 40))})`;
}

export function classify(message: string): AgentResult | undefined {
  const text = message.trim();
  if (text.startsWith('DONE|')) return { kind: 'done', artifact: (text.slice(5).split('\n')[0] ?? '').trim() };
  if (text.startsWith('BLOCKED|'))
    return { kind: 'blocked', reason: (text.slice(8).split('\n')[0] ?? '').trim().slice(0, MAX_REASON) };
  return undefined;
}

/** Fills the defaults of 7.1 into whatever the file held; undefined when it is not an object. */
export function normalizeWave(value: unknown): WaveFile | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    ...raw,
    wave: int(raw.wave, 1),
    expected: int(raw.expected, 0),
    done: int(raw.done, 0),
    status: typeof raw.status === 'string' ? raw.status : 'in-progress',
    seen_agents: list(raw.seen_agents),
    completed_artifacts: list(raw.completed_artifacts),
    blocked_agents: list(raw.blocked_agents),
  };
}

/** `blocked_reasons` as written by countResult: agent id -> reason; anything else reads as none. */
export function blockedReasons(wave: WaveFile): Record<string, string> {
  const raw = wave.blocked_reasons;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

export function isReady(status: string): boolean {
  return READY.has(status);
}

/** The new wave file for one result (pure). */
function countResult(wave: WaveFile, result: AgentResult, agentId: string): WaveFile {
  const next: WaveFile = {
    ...wave,
    seen_agents: [...wave.seen_agents],
    completed_artifacts: [...wave.completed_artifacts],
    blocked_agents: [...wave.blocked_agents],
  };
  if (agentId) next.seen_agents.push(agentId);
  if (result.kind === 'done') {
    next.done = wave.done + 1;
    next.status = next.expected > 0 && next.done >= next.expected ? 'ready-for-next-wave' : 'in-progress';
    if (result.artifact) next.completed_artifacts.push(result.artifact);
  } else {
    if (agentId) next.blocked_agents.push(agentId);
    // Beside the original's shape: why each agent is blocked, by agent id ("" when it had none),
    // so the orchestrator's Stop gate and the dashboard can say what it lacked.
    if (result.reason) next.blocked_reasons = { ...blockedReasons(wave), [agentId]: result.reason };
    // A BLOCKED after completion must not regress the wave (the original set it back to in-progress).
    next.status = isReady(wave.status) ? wave.status : 'in-progress';
  }
  return next;
}

/** The task document after one result (pure): wave_status and one active agent removed. */
function taskAfter(doc: JsonObject, wave: WaveFile, result: AgentResult, agentType: string): JsonObject {
  const key = String(wave.wave);
  const ready = isReady(wave.status);
  const status =
    doc.wave_status && typeof doc.wave_status === 'object' && !Array.isArray(doc.wave_status)
      ? { ...doc.wave_status }
      : {};
  if (result.kind === 'done' && ready) return { ...doc, wave_status: { ...status, [key]: 'done' }, active_agents: [] };
  const agents = Array.isArray(doc.active_agents) ? [...doc.active_agents] : [];
  const at = agents.indexOf(agentType);
  if (at >= 0) agents.splice(at, 1);
  return ready
    ? { ...doc, active_agents: agents }
    : { ...doc, wave_status: { ...status, [key]: 'in_progress' }, active_agents: agents };
}

export async function waveBarrier({ input, config, root, env, documents }: HandlerContext): Promise<HookOutcome> {
  const outcome: HookOutcome = { log: [] };
  const settings = config.wave;
  if (!settings) return outcome;
  const file = resolve(root, settings.file);
  // Not existsSync: a wave file that cannot be looked at is tried, and the log says why it was
  // not counted (the Stop gate blocks on it), instead of passing as no wave without a word.
  if (absent(file)) return outcome;
  const agentId = input.agentId;
  const who = `${agentId || 'an agent without agent_id'} (${input.agentType || 'unknown type'})`;
  // Skipped as the Eneo barrier does (docs/hooks.md, "What counts as a result"), but said, since
  // the result is then never counted.
  if (input.stopHookActive) {
    outcome.log.push(
      `[wave-barrier] ${who} not counted: stop_hook_active is set (the barrier skips a stop that follows a stop hook's block)`,
    );
    return outcome;
  }
  const result = classify(input.lastMessage);
  if (!result) {
    outcome.log.push(`[wave-barrier] ${who} not counted: ${notCounted(input.lastMessage)}`);
    return outcome;
  }
  try {
    await withStateLock(config, root, settings.lockTimeoutMs, async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(readStateText(file));
      } catch (error) {
        if (isReadRefusal(error)) return void outcome.log.push(`[wave-barrier] ${error.message}`);
        // Cleared while we waited: nothing to count. Corrupt: leave it for the doctor.
        if (noEntry(error)) return;
        outcome.log.push(
          error instanceof SyntaxError
            ? `[wave-barrier] ${settings.file} is not valid JSON; left as it is (run baton doctor)`
            : `[wave-barrier] ${unreadable('wave file', file, error).message}; ${who} not counted`,
        );
        return;
      }
      const wave = normalizeWave(parsed);
      if (!wave)
        return void outcome.log.push(
          `[wave-barrier] ${settings.file} is not a JSON object; left as it is (run baton doctor)`,
        );
      if (agentId && wave.seen_agents.includes(agentId))
        return void outcome.log.push(`[wave-barrier] duplicate SubagentStop for ${agentId} ignored`);
      const next = countResult(wave, result, agentId);
      writeFileAtomic(confine(root, file, 'wave file'), `${JSON.stringify(next, null, 2)}\n`, { mode: 0o644 });
      outcome.log.push(
        result.kind === 'done'
          ? `[wave-barrier] wave ${next.wave}: ${next.done}/${next.expected} (${next.status})`
          : `[wave-barrier] wave ${next.wave}: blocked result from ${input.agentType || 'unknown'}; not advancing`,
      );
      await updateTask(
        config,
        root,
        env,
        settings.lockTimeoutMs,
        (doc) => taskAfter(doc, next, result, input.agentType),
        outcome,
        documents,
      );
    });
  } catch (error) {
    if (!isBatonError(error, 'lock_timeout')) throw error;
    outcome.log.push(`[wave-barrier] lock timeout; event for ${agentId || 'unknown'} not recorded`);
  }
  return outcome;
}

async function updateTask(
  config: HandlerContext['config'],
  root: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  change: (doc: JsonObject) => JsonObject,
  outcome: HookOutcome,
  documents: HandlerContext['documents'],
): Promise<void> {
  const task = config.documents.task;
  // On a shared store this machine has no task file: the fetched document says whether there is one.
  if (!task || !(documents ? documents.get('task') !== undefined : existsSync(resolve(root, task.path)))) return;
  const { openDoc } = await import('../../doc/open.js');
  try {
    await openDoc(task.path, {
      cwd: root,
      env: { ...env, BATON_ROOT: root },
      lockTimeoutMs: timeoutMs,
    }).update(change, {}, { ifExists: true, writer: 'wave-barrier' });
  } catch (error) {
    outcome.log.push(`[wave-barrier] task document not updated: ${(error as Error).message}`);
  }
}
