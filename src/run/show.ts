import { isJson, type Json } from '../core/json.js';
import type { PhaseEntry, Run, RunDoc } from './run-document.js';

/**
 * `baton run show`: the run at a glance for a human or an orchestrator after compaction. Phases
 * come in contract order (then any others by number), each with status, agent, duration, outputs,
 * evidence and the last gate verdict; run variables follow, long ones named rather than printed.
 */
export async function showRun(run: Run, now: Date = new Date()): Promise<string> {
  const doc = await run.read();
  const lines = [`run ${doc.session}  ${run.location.key}`];
  if (doc.contract) lines.push(`contract: ${doc.contract.file ?? '(inline)'}`);
  const keys = phaseOrder(doc);
  lines.push(keys.length === 0 ? 'phases: none yet' : 'phases:');
  for (const key of keys) lines.push(...phaseLines(key, doc.phases[key] as PhaseEntry, now));
  const vars = Object.entries(doc).filter(([name]) => !['session', 'phases', 'contract'].includes(name));
  if (vars.length > 0) lines.push('run variables:');
  for (const [name, value] of vars) if (isJson(value)) lines.push(`  ${name} = ${brief(value)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `baton run show --json`: the same view as data, for an orchestrator's script: phases in the same
 * order, each entry whole plus its duration in seconds (null before it starts), then the variables.
 */
export async function showRunJson(run: Run, now: Date = new Date()): Promise<string> {
  const doc = await run.read();
  const view = {
    session: doc.session,
    file: run.location.key,
    contract: doc.contract ? (doc.contract.file ?? '(inline)') : null,
    phases: phaseOrder(doc).map((key) => {
      const entry = doc.phases[key] as PhaseEntry;
      return { phase: key, ...entry, seconds: seconds(entry, now) ?? null };
    }),
    variables: Object.fromEntries(
      Object.entries(doc).filter(([name]) => !['session', 'phases', 'contract'].includes(name)),
    ),
  };
  return `${JSON.stringify(view, null, 2)}\n`;
}

export function phaseOrder(doc: RunDoc): string[] {
  const listed = (doc.contract?.phases ?? []).map((p) => p.phase).filter((key) => doc.phases?.[key]);
  const others = Object.keys(doc.phases ?? {})
    .filter((key) => !listed.includes(key))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
  return [...listed, ...others];
}

function phaseLines(key: string, entry: PhaseEntry, now: Date): string[] {
  const gate = entry.gate ? `gate ${entry.gate.result}` : entry.status === 'done' ? 'gate not run' : '';
  const head = [
    key.padEnd(22),
    entry.status.padEnd(12),
    (entry.agent ?? '-').padEnd(16),
    duration(entry, now).padEnd(12),
    gate,
  ];
  const lines = [`  ${head.join(' ').trimEnd()}`];
  for (const [name, value] of Object.entries(entry.outputs)) lines.push(`      output    ${name} = ${brief(value)}`);
  for (const path of entry.evidence) lines.push(`      evidence  ${path}`);
  for (const path of entry.work_items) lines.push(`      work item ${path}`);
  if (entry.gate?.result === 'fail' && entry.gate.missing?.length)
    lines.push(`      missing   ${entry.gate.missing.join(', ')}`);
  return lines;
}

function seconds(entry: PhaseEntry, now: Date): number | undefined {
  if (!entry.started_at) return undefined;
  const end = entry.finished_at ? Date.parse(entry.finished_at) : now.getTime();
  return Math.max(0, Math.round((end - Date.parse(entry.started_at)) / 1000));
}

function duration(entry: PhaseEntry, now: Date): string {
  const elapsed = seconds(entry, now);
  if (elapsed === undefined) return '-';
  const text =
    elapsed < 60
      ? `${elapsed}s`
      : elapsed < 3600
        ? `${Math.floor(elapsed / 60)}m ${elapsed % 60}s`
        : `${Math.floor(elapsed / 3600)}h ${Math.floor((elapsed % 3600) / 60)}m`;
  return entry.finished_at ? text : `${text}+`;
}

function brief(value: Json): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length <= 100 && !text.includes('\n') ? text : `(${Buffer.byteLength(text)} bytes)`;
}
