import { BatonError, EXIT } from '../../core/errors.js';
import { parseJsonArg, type Json } from '../../core/json.js';
import { OUTPUT_KEY } from '../../run/contract.js';
import { Run } from '../../run/document.js';
import { reportRunError } from '../../run/exit.js';
import { formatValue, lookup } from '../../run/fields.js';
import { checkSize, limitsFrom } from '../../run/limits.js';
import { checkPhaseKey, finishPhase, startPhase } from '../../run/phases.js';
import { inspectPath, projectRelative } from '../../run/project-path.js';
import { parseCommand, usageError, writerFrom, type Parsed } from '../args.js';
import { COMMANDS, errorUsage } from '../definitions.js';
import type { Cli } from '../context.js';

/**
 * `baton phase start|done|get|inputs RUN PHASE`: phase entries without hand-written jq (spec
 * defect 8.4). `done` is one locked read-modify-write, so agents finishing in parallel all land.
 */
const DEF = COMMANDS.phase!;
const SHORT = errorUsage(DEF);
const REPEATED = DEF.options.filter((option) => option.repeat).map((option) => option.name);
const RESERVED = ['session', 'phases', 'contract'];

export default async function phase(argv: string[], cli: Cli): Promise<number> {
  try {
    const { lists, rest } = takeRepeated(argv, REPEATED);
    const parsed = parseCommand({ ...DEF, options: DEF.options.filter((option) => !option.repeat) }, rest);
    const [verb, ref, key, field] = parsed.positionals as [string, string, string, string?];
    if (!['start', 'done', 'get', 'inputs'].includes(verb)) throw usageError(`unknown phase command '${verb}'`, SHORT);
    checkPhaseKey(key);
    const { flags } = parsed;
    const run = new Run(ref, { cwd: cli.cwd, env: cli.env, writer: writerFrom(flags.as, cli.env), limits: limitsFrom(cli.env, flags['allow-large'] === true) }, str(flags.name));
    if (verb === 'start') return await start(run, key, parsed);
    if (verb === 'done') return await done(run, key, parsed, lists, cli);
    if (verb === 'get') return await get(run, key, field, cli);
    const { resolveInputs, formatInputs } = await import('../../run/inputs.js');
    const doc = await run.read();
    const inputs = resolveInputs(doc, key);
    cli.out(formatInputs(inputs, doc));
    return inputs.inputs.every((input) => input.value !== undefined) ? EXIT.ok : EXIT.refused;
  } catch (error) {
    return reportRunError(error, cli.err, 'baton phase: ');
  }
}

async function start(run: Run, key: string, parsed: Parsed): Promise<number> {
  const agent = str(parsed.flags.agent);
  if (!agent) throw new BatonError('usage', `phase start needs --agent NAME (the agent that runs ${key})`);
  await run.update((doc) => void startPhase(doc, key, { agent, now: now(), rerun: parsed.flags.rerun === true }), 'phase');
  return EXIT.ok;
}

async function done(run: Run, key: string, parsed: Parsed, lists: Record<string, string[]>, cli: Cli): Promise<number> {
  const { flags } = parsed;
  const root = run.location.root;
  const outputs = (lists.output ?? []).map((pair) => outputPair(pair, flags.json === true, flags.promote === true));
  const warnings = outputs.map(([name, value]) => checkSize(`output ${name}`, value, run.limits)).filter((w): w is string => w !== undefined);
  const evidence = (lists.evidence ?? []).map((path) => projectRelative(path, root, 'evidence'));
  const workItems = (lists['work-item'] ?? []).map((path) => projectRelative(path, root, 'work item'));
  const also = str(flags.also);
  if (also !== undefined && (!OUTPUT_KEY.test(also) || RESERVED.includes(also) || evidence.length === 0)) {
    throw new BatonError('usage', `--also ${JSON.stringify(also)} needs --evidence PATH and a top-level list name other than ${RESERVED.join('/')} (e.g. phase-2-evidence)`);
  }
  for (const path of [...evidence, ...workItems]) {
    if (inspectPath(path, root) !== 'ok') warnings.push(`warning: ${path} does not exist yet (or is empty); the gate fails until it does`);
  }
  await run.update((doc) => void finishPhase(doc, key, { now: now(), agent: str(flags.agent), outputs, evidence, workItems, also, promote: flags.promote === true }), 'phase');
  for (const warning of warnings) cli.err(`${warning}\n`);
  return EXIT.ok;
}

async function get(run: Run, key: string, field: string | undefined, cli: Cli): Promise<number> {
  const doc = await run.read();
  const entry = doc.phases?.[key];
  if (!entry) throw new BatonError('not_found', `run ${doc.session} has no phase ${key}; phases: ${Object.keys(doc.phases ?? {}).join(', ') || 'none'}`);
  const value = field === undefined ? (entry as unknown as Json) : lookup(entry as never, field);
  if (value !== undefined && value !== null) cli.out(`${formatValue(value)}\n`);
  return EXIT.ok;
}

function outputPair(pair: string, json: boolean, promote: boolean): [string, Json] {
  const at = pair.indexOf('=');
  const name = at < 0 ? pair : pair.slice(0, at);
  if (at <= 0 || !OUTPUT_KEY.test(name)) throw new BatonError('usage', `--output ${JSON.stringify(pair)} must be KEY=VALUE with a key of letters, digits, '_', '-', '.'`);
  if (promote && RESERVED.includes(name)) throw new BatonError('usage', `--promote cannot set the run's own field '${name}'; rename the output`);
  const text = pair.slice(at + 1);
  return [name, json ? parseJsonArg(text, `--output ${name}`) : text];
}

/** Pulls out flags that may repeat (`--evidence a --evidence b`), which parseArgs keeps only once. */
function takeRepeated(argv: string[], names: string[]): { lists: Record<string, string[]>; rest: string[] } {
  const lists: Record<string, string[]> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq < 0 ? arg.slice(2) : arg.slice(2, eq)) : '';
    if (!names.includes(name)) {
      rest.push(arg);
      continue;
    }
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw usageError(`--${name} needs a value`, SHORT);
    (lists[name] ??= []).push(value);
  }
  return { lists, rest };
}

function str(value: string | true | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}
