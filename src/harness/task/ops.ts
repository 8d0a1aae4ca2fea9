/**
 * The Eneo task-state operations over baton documents. Every write (init, update,
 * phase-set, next-hint-consume, clear, wave-start) holds the one state lock
 * (`.locks/state.lock`, where a leftover bash writer's lock would collide with it) across the
 * task document, its phase mirror and wave.json; the mirror is written by the eneo-task schema's
 * mirror rule. The document's own lock is taken inside it, always in that order.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandIo } from '../../core/command-io.js';
import { EXIT, isBatonError } from '../../core/errors.js';
import type { Json } from '../../core/json.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { confine, mkdirInside } from '../../fs/confine.js';
import { stateLockPath, withStateLock } from './state-lock.js';
import { heldBy } from './shell-lock.js';
import { stateError, stateExit } from './task-errors.js';
import { stateNote, type TaskSetup } from './setup.js';
import { readStateText } from './state-read.js';

const PHASES = ['RED', 'GREEN', 'REFACTOR', 'FREE'];
const WRITER = 'eneo-state';
/** The helpers' exit code for an operation on a task that was never started. */
const NO_TASK = 3;

export async function taskInit(
  setup: TaskSetup,
  cli: CommandIo,
  [slug, lane, bracket, tenancy, audit]: string[],
): Promise<void> {
  if (!/^-?\d+$/.test(bracket ?? ''))
    throw stateExit('usage', EXIT.usage, `bracket must be an integer, got '${bracket}'`);
  const values = {
    slug: slug as string,
    lane: lane as string,
    bracket: Number(bracket),
    tenancy_impact: tenancy as string,
    audit_impact: audit as string,
  };
  await locked(setup, async () => {
    const current = setup.doc();
    const old = await current.store.read(current.key);
    const oldSlug =
      old.state === 'ok' && typeof (old.doc as Record<string, Json>)?.slug === 'string'
        ? (old.doc as Record<string, string>).slug
        : undefined;
    mkdirInside(setup.root, setup.stateDir, 'state folder');
    try {
      await setup
        .doc()
        .init(values, { schema: setup.config.documents.task?.schema ?? 'eneo-task', force: true, writer: WRITER });
    } catch (error) {
      // The helpers' init checked its arguments: values the schema refuses are a usage error there.
      throw isBatonError(error, 'invalid') ? stateExit('invalid', EXIT.usage, error.message) : stateError(error);
    }
    if (oldSlug && oldSlug !== slug) cli.err(`[state] replacing current task ${oldSlug} with ${slug}\n`);
    rmSync(confine(setup.root, setup.waveFile, 'wave file'), { force: true });
  });
}

/**
 * Whether the task document exists in the store that holds it: a file here, or a row in a shared
 * store, where this machine may have no file at all.
 */
async function taskExists(setup: TaskSetup): Promise<boolean> {
  const doc = setup.doc();
  return (await doc.store.read(doc.key)).state !== 'missing';
}

export async function taskUpdate(
  setup: TaskSetup,
  cli: CommandIo,
  expr: string,
  args: Record<string, Json>,
  ifExists: boolean,
): Promise<void> {
  if (!(await taskExists(setup))) {
    if (ifExists) return;
    throw stateExit('not_found', NO_TASK, `no current task (${setup.taskPath})`);
  }
  await locked(setup, async () => {
    try {
      const result = await setup.doc().update(expr, args, { ifExists, writer: WRITER });
      for (const note of result.notes) cli.err(`[state] ${stateNote(note)}\n`);
    } catch (error) {
      throw stateError(error, expr);
    }
  });
}

export async function phaseSet(setup: TaskSetup, value: string): Promise<void> {
  const phase = value.toUpperCase();
  if (!PHASES.includes(phase))
    throw stateExit('usage', EXIT.usage, `invalid phase: ${value} (expected RED|GREEN|REFACTOR|FREE)`);
  const exists = await taskExists(setup);
  if (!exists && phase !== 'FREE') throw stateExit('not_found', NO_TASK, 'no current task; run init first');
  mkdirInside(setup.root, setup.stateDir, 'state folder');
  await locked(setup, async () => {
    if (exists) {
      await setup.doc().update((doc) => ({ ...doc, tdd_phase: phase }), {}, { writer: WRITER });
    } else {
      writeMirror(setup, phase);
    }
  });
}

export async function nextHintConsume(setup: TaskSetup): Promise<string> {
  if (!(await taskExists(setup))) return '';
  let hint: Json = null;
  await locked(setup, async () => {
    hint = await setup.doc().consume('next_hint', { writer: WRITER });
  });
  return hint === null ? '' : typeof hint === 'string' ? hint : JSON.stringify(hint);
}

/** Deletes the task and wave.json, mirror back to FREE; never creates the state folder. */
export async function taskClear(setup: TaskSetup): Promise<void> {
  const exists = await taskExists(setup);
  if (!exists && !existsSync(setup.stateDir)) return;
  await locked(setup, async () => {
    if (exists) await setup.doc().clear({ writer: WRITER });
    rmSync(confine(setup.root, setup.waveFile, 'wave file'), { force: true });
    writeMirror(setup, 'FREE');
  });
}

export interface WaveStart {
  wave: number;
  expected: number;
  total?: number;
  agents?: Json;
}

/**
 * Opens a wave, setting `next_hint` to null as the Eneo helpers do (docs/eneo.md, "The Eneo
 * compat helpers"): a hint was written for the wave before, and read by the next one it would
 * mislead. The hint it cleared is returned so the caller can say so, instead of dropping it silently.
 */
export async function waveStart(setup: TaskSetup, start: WaveStart): Promise<Json | undefined> {
  if (!(await taskExists(setup))) throw stateExit('not_found', NO_TASK, `no current task (${setup.taskPath})`);
  let cleared: Json | undefined;
  await locked(setup, async () => {
    // Agent ids already counted stay in seen_agents, so a late or duplicate SubagentStop from an
    // earlier wave is ignored instead of counting toward this one (ids are unique per agent run).
    const seen = previousAgents(setup.waveFile);
    const wave = {
      wave: start.wave,
      expected: start.expected,
      done: 0,
      status: 'in-progress',
      ...(seen.length > 0 ? { seen_agents: seen } : {}),
    };
    writeFileAtomic(confine(setup.root, setup.waveFile, 'wave file'), `${JSON.stringify(wave, null, 2)}\n`, {
      mode: 0o644,
    });
    await setup.doc().update(
      (doc) => {
        const status =
          doc.wave_status && typeof doc.wave_status === 'object' && !Array.isArray(doc.wave_status)
            ? doc.wave_status
            : {};
        cleared = doc.next_hint === null || doc.next_hint === '' ? undefined : doc.next_hint;
        return {
          ...doc,
          wave: start.wave,
          ...(start.total !== undefined ? { wave_total: start.total } : {}),
          active_agents: start.agents ?? [],
          wave_status: { ...status, [String(start.wave)]: 'in_progress' },
          next_hint: null,
        };
      },
      {},
      { writer: WRITER },
    );
  });
  return cleared;
}

function previousAgents(file: string): string[] {
  try {
    const old = JSON.parse(readStateText(file)) as { seen_agents?: unknown };
    return Array.isArray(old.seen_agents)
      ? old.seen_agents.filter((id): id is string => typeof id === 'string' && id !== '')
      : [];
  } catch {
    return [];
  }
}

export function mirrorPath(setup: TaskSetup): string {
  const mirror = setup.config.documents.task?.mirrors?.tdd_phase;
  return resolve(setup.root, mirror?.file ?? `${setup.stateDir}/phase`);
}

function writeMirror(setup: TaskSetup, phase: string): void {
  const file = mirrorPath(setup);
  if (existsSync(dirname(file)))
    writeFileAtomic(confine(setup.root, file, 'phase mirror'), `${phase}\n`, { durable: false, mode: 0o644 });
}

async function locked(setup: TaskSetup, fn: () => Promise<void>): Promise<void> {
  try {
    // A shell that holds the state lock through eneo_acquire_lock writes inside its hold.
    if (heldBy(setup.lockHolder, stateLockPath(setup.config, setup.root))) await fn();
    else await withStateLock(setup.config, setup.root, setup.lockTimeoutMs, fn);
  } catch (error) {
    throw stateError(error);
  }
}
