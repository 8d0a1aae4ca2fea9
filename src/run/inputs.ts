/**
 * What a phase reads on start: each input key its contract lists,
 * resolved to the value the producing phase recorded (or the run-wide top-level key), plus the
 * evidence paths of those producing phases. Keys and paths, never file content: reading the
 * files is the agent's job, and pasting them here would rebuild the dumps the bus exists to end.
 */
import { BatonError } from '../core/errors.js';
import { isJson, type Json } from '../core/json.js';
import type { RunDoc } from './run-document.js';

export interface ResolvedInput {
  key: string;
  value: Json | undefined;
  /** The phase that produced it, or `run` for a top-level run variable. */
  from: string | undefined;
}

export interface PhaseInputs {
  phase: string;
  agent?: string | undefined;
  inputs: ResolvedInput[];
  evidence: Record<string, string[]>;
}

export function resolveInputs(run: RunDoc, phase: string): PhaseInputs {
  const phases = run.contract?.phases;
  if (!phases)
    throw new BatonError(
      'not_found',
      `run ${run.session} has no contract, so phase inputs are unknown; start the run with 'baton run init SESSION --contract FILE'`,
    );
  const index = phases.findIndex((p) => p.phase === phase);
  const step = phases[index];
  // A usage error, as phase start and done answer the same key (exit 2): not a missing input.
  if (!step)
    throw new BatonError(
      'usage',
      `phase ${phase} is not in the contract (${phases.map((p) => p.phase).join(', ')}); use one of its phases`,
    );
  const earlier = phases.slice(0, index).reverse();
  const evidence: Record<string, string[]> = {};
  const inputs = step.inputs.map((key): ResolvedInput => {
    const producer = earlier.find((p) => p.outputs.includes(key))?.phase;
    const produced = producer === undefined ? undefined : run.phases?.[producer]?.outputs[key];
    if (producer !== undefined) evidence[producer] = run.phases?.[producer]?.evidence ?? [];
    if (produced !== undefined && produced !== null) return { key, value: produced, from: producer };
    const flat = run[key];
    if (flat !== undefined && flat !== null && isJson(flat)) return { key, value: flat, from: 'run' };
    return { key, value: undefined, from: producer };
  });
  return { phase, agent: step.agent, inputs, evidence };
}

export function formatInputs(result: PhaseInputs, run: RunDoc): string {
  const lines = [`inputs of ${result.phase}${result.agent ? ` (agent ${result.agent})` : ''}:`];
  if (result.inputs.length === 0) lines.push('  (none)');
  for (const input of result.inputs) {
    if (input.value === undefined) {
      const status = input.from ? (run.phases?.[input.from]?.status ?? 'not started') : undefined;
      lines.push(
        `  ${input.key}  MISSING${input.from ? ` (${input.from} is ${status})` : ' (no phase produces it and the run has no such key)'}`,
      );
    } else {
      lines.push(
        `  ${input.key} = ${brief(input.value)}  (${input.from === 'run' ? 'run variable' : `from ${input.from}`})`,
      );
    }
  }
  const producers = Object.entries(result.evidence).filter(([, paths]) => paths.length > 0);
  if (producers.length > 0) lines.push('evidence:');
  for (const [phase, paths] of producers) for (const path of paths) lines.push(`  ${phase}: ${path}`);
  return `${lines.join('\n')}\n`;
}

/** A long value is named, not printed: the agent fetches it with `baton run get` if it needs it. */
function brief(value: Json): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length <= 120 && !text.includes('\n')
    ? text
    : `(${Buffer.byteLength(text)} bytes; read it with 'baton run get RUN KEY')`;
}
