/**
 * The evidence-based gate the orchestrator runs before the next phase: a phase passes when it is done, every
 * output its contract names is present, and every evidence and work-item path is a real file
 * inside the project. It reads files, not claims: an output that names a `.ai_log/` or `docs/`
 * file is checked too, an empty evidence file counts as missing, and a phase with no evidence
 * at all fails (a phase that saved nothing has only its own word).
 */
import type { Json } from '../core/json.js';
import type { PhaseEntry, RunDoc } from './run-document.js';
import { inspectPath, looksLikeProjectPath, type PathState } from './project-path.js';

export interface GateRow {
  holds: boolean;
  kind: 'status' | 'output' | 'evidence' | 'work_item';
  subject: string;
  detail: string;
}

export interface GateResult {
  phase: string;
  pass: boolean;
  rows: GateRow[];
}

const STATE_TEXT: Record<PathState, string> = {
  ok: 'exists',
  missing: 'no such file',
  empty: 'empty file',
  outside: 'outside the project',
};

export function evaluateGate(run: RunDoc, phase: string, root: string): GateResult {
  const entry: PhaseEntry | undefined = run.phases?.[phase];
  const rows: GateRow[] = [];
  rows.push({
    holds: entry?.status === 'done',
    kind: 'status',
    subject: phase,
    detail: entry ? entry.status : 'no such phase',
  });
  const outputs = entry?.outputs ?? {};
  const contract = run.contract?.phases.find((p) => p.phase === phase);
  const expected = contract?.outputs ?? [];
  for (const key of [...expected, ...Object.keys(outputs).filter((k) => !expected.includes(k))]) {
    rows.push(outputRow(key, outputs[key], root, expected.includes(key)));
  }
  const evidence = entry?.evidence ?? [];
  if (entry && evidence.length === 0)
    rows.push({
      holds: false,
      kind: 'evidence',
      subject: '(none)',
      detail: 'no evidence recorded; pass --evidence PATH to phase done',
    });
  for (const path of evidence) rows.push(pathRow('evidence', path, root));
  for (const path of entry?.work_items ?? []) rows.push(pathRow('work_item', path, root));
  return { phase, pass: rows.every((row) => row.holds), rows };
}

function outputRow(key: string, value: Json | undefined, root: string, required: boolean): GateRow {
  if (value === undefined || value === null || value === '') {
    return {
      holds: !required,
      kind: 'output',
      subject: key,
      detail: required ? 'missing (the contract requires it)' : 'empty',
    };
  }
  if (looksLikeProjectPath(value)) {
    const state = inspectPath(value, root);
    return { holds: state === 'ok', kind: 'output', subject: key, detail: `${value} (${STATE_TEXT[state]})` };
  }
  return {
    holds: true,
    kind: 'output',
    subject: key,
    detail: typeof value === 'string' ? value : JSON.stringify(value),
  };
}

function pathRow(kind: 'evidence' | 'work_item', path: string, root: string): GateRow {
  const state = inspectPath(path, root);
  return { holds: state === 'ok', kind, subject: path, detail: STATE_TEXT[state] };
}

/** The table `baton gate` prints: one row per check, then the verdict. */
export function formatGate(result: GateResult): string {
  const width = Math.min(48, Math.max(...result.rows.map((row) => row.subject.length)));
  const lines = result.rows.map(
    (row) =>
      `  ${(row.holds ? 'ok' : 'MISSING').padEnd(8)}${row.kind.padEnd(10)}${row.subject.padEnd(width)}  ${clip(row.detail)}`,
  );
  const failed = result.rows.filter((row) => !row.holds).length;
  const verdict = result.pass
    ? `gate ${result.phase}: pass`
    : `gate ${result.phase}: FAIL (${failed} of ${result.rows.length} checks do not hold)`;
  return `${lines.join('\n')}\n${verdict}\n`;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
