/**
 * The original five verbs (init, set, append, get, clear) over a Run. Field names are taken
 * literally for writes (`set S a.b x` sets the key "a.b", as the original did); only reads fall
 * back to a dot path, and the exact top-level key always wins so old flat keys stay readable.
 */
import { BatonError } from '../core/errors.js';
import { isJsonObject, isObject, type Json } from '../core/json.js';
import { getAt, parsePath } from '../core/dotted-paths.js';
import type { Contract } from './contract.js';
import { OPERATION } from '../doc/doc.js';
import { Run, type PhaseEntry, type RunDoc } from './run-document.js';
import { checkSize } from './size-limits.js';
import { emptyPhase } from './phases.js';

export interface Outcome {
  /** What to print on stdout. */
  out?: string;
  /** Warnings for stderr. */
  warnings: string[];
}

/** Writes `{session, phases: {}}` (plus the contract's phases as todo), replacing only this run's file. */
export async function initRun(run: Run, contract?: Contract): Promise<Outcome> {
  const values: RunDoc = { session: run.location.label, phases: {} };
  for (const phase of contract?.phases ?? []) values.phases[phase.phase] = emptyPhase(phase.agent);
  if (contract) values.contract = contract;
  if (!isJsonObject(values)) throw new BatonError('internal', `run ${run.location.label} is not JSON`);
  await run.doc.init(values, { schema: 'pipeline-run', force: true, [OPERATION]: 'run.init' });
  return { out: `pipeline-state: initialized ${run.location.file} (session=${run.location.label})\n`, warnings: [] };
}

export async function setField(run: Run, field: string, value: Json): Promise<Outcome> {
  const warning = checkSize(field, value, run.limits);
  await run.update((doc) => {
    doc[field] = value;
  });
  return { warnings: warning ? [warning] : [] };
}

export async function appendField(run: Run, field: string, value: Json): Promise<Outcome> {
  const warning = checkSize(field, value, run.limits);
  await run.update((doc) => {
    const current = doc[field] ?? null;
    if (current !== null && !Array.isArray(current)) throw new BatonError('invalid', `field ${field} is not a list`);
    const list: unknown[] = current ?? [];
    doc[field] = [...list, value];
  });
  return { warnings: warning ? [warning] : [] };
}

/** Reads take no lock: the engine replaces the file atomically, so a read sees one revision. */
export async function getField(run: Run, field: string | undefined, fallback?: string): Promise<Outcome> {
  const doc = await run.read();
  if (field === undefined) return { out: `${JSON.stringify(doc, null, 2)}\n`, warnings: [] };
  const value = lookup(doc, field);
  if (value === undefined || value === null)
    return { out: fallback === undefined ? '' : `${fallback}\n`, warnings: [] };
  return { out: `${formatValue(value)}\n`, warnings: [] };
}

export async function clearRun(run: Run): Promise<Outcome> {
  await run.doc.clear();
  return { out: `pipeline-state: cleared ${run.location.file}\n`, warnings: [] };
}

/** A run's field, or a dot path into it; the whole of `doc` when `field` is undefined. */
export function lookup(doc: RunDoc | PhaseEntry, field: string | undefined): Json | undefined {
  if (!isJsonObject(doc)) return undefined;
  if (field === undefined) return doc;
  if (Object.hasOwn(doc, field)) return doc[field];
  if (!field.includes('.')) return undefined;
  try {
    return getAt(doc, parsePath(field));
  } catch {
    return undefined;
  }
}

/** A string prints raw; anything else as JSON indented by 2, as `jq .field` printed it. */
export function formatValue(value: Json): string {
  return typeof value === 'string'
    ? value
    : isObject(value) || Array.isArray(value)
      ? JSON.stringify(value, null, 2)
      : JSON.stringify(value);
}
