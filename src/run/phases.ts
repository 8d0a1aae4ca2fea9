/**
 * Phase entries and their state machine: todo -> in_progress -> done. Each function here edits the
 * run inside the engine's lock (it is the body of one `update`), so two agents finishing different
 * phases at once both land, and the status they check is the committed one, never a stale copy.
 */
import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import type { PhaseEntry, PhaseStatus, RunDoc } from './run-document.js';

export const PHASE_KEY = /^[0-9]+-[a-z0-9][a-z0-9-]*$/;

export function checkPhaseKey(key: string): string {
  if (!PHASE_KEY.test(key)) {
    throw new BatonError(
      'usage',
      `invalid phase ${JSON.stringify(key)}: use <number>-<name> in lower case, e.g. 0-requirements or 3-backend`,
    );
  }
  return key;
}

export function emptyPhase(agent?: string): PhaseEntry {
  return { ...(agent ? { agent } : {}), status: 'todo', outputs: {}, evidence: [], work_items: [] };
}

/** The entry for `key`, created as `todo` the first time any part of it is written. */
function phaseEntry(run: RunDoc, key: string, agent?: string): PhaseEntry {
  run.phases ??= {};
  run.phases[key] ??= emptyPhase(agent);
  return run.phases[key];
}

export interface StartOptions {
  agent: string;
  now: string;
  /** Allow done -> in_progress: the gate failed and the phase runs again. */
  rerun?: boolean;
}

/**
 * A run started from a contract knows its phases: a key outside them (a typo, another workflow's
 * phase) would make an entry no gate or input ever reads, so it is refused as a usage error.
 */
function checkInWorkflow(run: RunDoc, key: string): void {
  const phases = run.contract?.phases.map((phase) => phase.phase);
  // run init refuses a contract without phases: one here was written some other way, and the
  // schema's sealed rule (exit 5) is what answers it.
  if (!phases || phases.length === 0 || phases.includes(key)) return;
  throw new BatonError(
    'usage',
    `phase ${key} is not in this run's workflow (${run.contract?.file ?? 'its contract'}), whose phases are ${phases.join(', ')}; use one of them`,
  );
}

export function startPhase(run: RunDoc, key: string, options: StartOptions): PhaseEntry {
  checkInWorkflow(run, key);
  const entry = phaseEntry(run, key, options.agent);
  const allowed: PhaseStatus[] = options.rerun ? ['todo', 'done'] : ['todo'];
  if (!allowed.includes(entry.status))
    throw refused(key, entry.status, 'in_progress', options.rerun ? undefined : rerunHint(key, entry.status));
  entry.agent = options.agent;
  entry.status = 'in_progress';
  entry.started_at = options.now;
  delete entry.finished_at;
  delete entry.gate;
  return entry;
}

export interface DoneOptions {
  now: string;
  agent?: string | undefined;
  outputs: [string, Json][];
  evidence: string[];
  workItems: string[];
  /** Also set each output at the top level, the run-wide latest value. */
  promote?: boolean;
  /** A top-level list (e.g. `phase-2-evidence`) that gets the evidence paths too. */
  also?: string | undefined;
}

export function finishPhase(run: RunDoc, key: string, options: DoneOptions): PhaseEntry {
  checkInWorkflow(run, key);
  const entry = phaseEntry(run, key, options.agent);
  if (entry.status !== 'in_progress')
    throw refused(
      key,
      entry.status,
      'done',
      `start it first: baton phase start RUN ${key} --agent NAME${entry.status === 'done' ? ' --rerun' : ''}`,
    );
  if (options.also !== undefined) mirrorEvidence(run, options.also, options.evidence);
  if (options.agent !== undefined) entry.agent = options.agent;
  for (const [name, value] of options.outputs) {
    entry.outputs[name] = value;
    if (options.promote) run[name] = value;
  }
  entry.evidence.push(...options.evidence.filter((path) => !entry.evidence.includes(path)));
  entry.work_items.push(...options.workItems.filter((path) => !entry.work_items.includes(path)));
  entry.status = 'done';
  entry.finished_at = options.now;
  delete entry.gate;
  return entry;
}

/**
 * Skills written for the original read a phase's evidence from a flat `phase-<N>-evidence` list
 * (`get S phase-6-evidence`); mirroring it there keeps those readers working after the writer moves
 * to `phase done`. A path already listed is not added twice, so a re-run phase does not double it.
 */
function mirrorEvidence(run: RunDoc, field: string, paths: string[]): void {
  const list = run[field] ?? null;
  if (list !== null && !Array.isArray(list)) throw new BatonError('invalid', `field ${field} is not a list`);
  const current: unknown[] = list ?? [];
  run[field] = [...current, ...paths.filter((path) => !current.includes(path))];
}

function refused(key: string, from: PhaseStatus, to: PhaseStatus, hint?: string): BatonError {
  return new BatonError(
    'exists',
    `phase ${key} is ${from} and cannot move to ${to} (phases go todo -> in_progress -> done)${hint ? `; ${hint}` : ''}`,
  );
}

function rerunHint(key: string, status: PhaseStatus): string | undefined {
  if (status === 'done') return `to run it again pass --rerun: baton phase start RUN ${key} --agent NAME --rerun`;
  if (status === 'in_progress') return 'it is already running; finish it with baton phase done';
  return undefined;
}
