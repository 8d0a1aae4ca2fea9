/**
 * A run's contract: the workflow file that names each phase, its agent, the keys it reads and the
 * keys it must produce. It is parsed once at `run init --contract` and copied into the run, so
 * the gate judges against the contract the run started with even if the file changes later.
 *
 * Accepted shapes (JSON or YAML), phases in order:
 *   phases: [{ phase: 0-requirements, agent: pm, inputs: [user_request], outputs: [prd_document] }]
 *   phases: { 0-requirements: { agent: pm, input: [...], output: [...] } }
 * `id`/`name` may stand for `phase`, and `input`/`output` for the plural (the original workflow
 * YAML says `input:`).
 */
import { relative, resolve } from 'node:path';
import { BatonError, isBatonError } from '../core/errors.js';
import { CONFIG_FILE_MAX_BYTES, readFileBounded } from '../fs/bounded-read.js';
import { isObject, type Json } from '../core/json.js';
import { isInside } from '../fs/confine.js';
import type { Contract } from '../generated/types/pipeline-run.js';
import { PHASE_KEY } from './phases.js';

export type { Contract } from '../generated/types/pipeline-run.js';
export type ContractPhase = Contract['phases'][number];

export const OUTPUT_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export async function loadContract(path: string, cwd: string, root: string): Promise<Contract> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileBounded(file, CONFIG_FILE_MAX_BYTES, `contract ${path}`, 'a contract lists phases: fix the file');
  } catch (error) {
    if (isBatonError(error)) throw error;
    throw bad(
      path,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'check the --contract path',
    );
  }
  const data = /\.ya?ml$/i.test(file) ? await parseYaml(text, path) : parseJson(text, path);
  return { file: isInside(root, file) ? relative(root, file) : file, phases: readPhases(data, path) };
}

function parseJson(text: string, path: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw bad(path, `is not valid JSON (${(error as Error).message})`, 'fix the file or give a .yaml file');
  }
}

/**
 * `yaml` is imported only here: runs without a contract never pay for loading it. It is a CJS
 * package, and esbuild's split chunks expose a lazily imported CJS module only as `default`.
 */
async function parseYaml(text: string, path: string): Promise<Json> {
  const module = await import('yaml');
  const parse = module.parse ?? (module as unknown as { default: typeof module }).default.parse;
  try {
    return parse(text) as Json;
  } catch (error) {
    throw bad(path, `is not valid YAML (${(error as Error).message.split('\n')[0]})`, 'fix the file');
  }
}

function readPhases(data: Json, path: string): ContractPhase[] {
  const raw = isObject(data) ? data.phases : undefined;
  const entries: [string | undefined, Json][] = Array.isArray(raw)
    ? raw.map((item) => [undefined, item])
    : isObject(raw)
      ? Object.entries(raw)
      : [];
  if (entries.length === 0)
    throw bad(path, 'has no phases', 'give a top-level `phases:` list of {phase, agent, inputs, outputs}');
  const issues: string[] = [];
  const phases = entries.map(([key, item], index) => readPhase(key, item, `phases[${index}]`, issues));
  const seen = new Set<string>();
  for (const phase of phases) {
    if (seen.has(phase.phase)) issues.push(`phase ${phase.phase} is listed twice`);
    seen.add(phase.phase);
  }
  if (issues.length > 0)
    throw bad(path, `is not a valid contract: ${issues.slice(0, 3).join('; ')}`, 'fix those entries');
  return phases;
}

function readPhase(key: string | undefined, item: Json, where: string, issues: string[]): ContractPhase {
  const entry = isObject(item) ? item : {};
  if (!isObject(item)) issues.push(`${where} is not an object`);
  const phase = key ?? entry.phase ?? entry.id ?? entry.name;
  if (typeof phase !== 'string' || !PHASE_KEY.test(phase))
    issues.push(`${where} phase ${JSON.stringify(phase ?? null)} is not <number>-<name> (e.g. 0-requirements)`);
  const agent = entry.agent;
  if (agent !== undefined && typeof agent !== 'string') issues.push(`${where}.agent must be a string`);
  return {
    phase: typeof phase === 'string' ? phase : JSON.stringify(phase ?? null),
    ...(typeof agent === 'string' ? { agent } : {}),
    inputs: keys(entry.inputs ?? entry.input, `${where}.inputs`, issues),
    outputs: keys(entry.outputs ?? entry.output, `${where}.outputs`, issues),
  };
}

function keys(value: Json | undefined, where: string, issues: string[]): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((k) => typeof k === 'string' && OUTPUT_KEY.test(k))) {
    issues.push(`${where} must be a list of key names (letters, digits, '_', '-', '.')`);
    return [];
  }
  return list as string[];
}

function bad(path: string, what: string, fix: string): BatonError {
  return new BatonError('usage', `contract ${path} ${what}; ${fix}`);
}
