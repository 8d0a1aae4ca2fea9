/**
 * `baton phase start|done|get|inputs RUN PHASE`: phase entries without hand-written jq (the
 * original's docs said to edit the nested entry with raw jq). `done` is one locked read-modify-write, so agents finishing in parallel all land.
 */
import { isoSeconds } from '../../core/iso-time.js';
import { BatonError, COMPAT_EXITS, EXIT, type CompatFace } from '../../core/errors.js';
import { parseJsonArg, type Json } from '../../core/json.js';
import { Run } from '../../run/run-document.js';
import { formatValue, lookup } from '../../run/fields.js';
import { runTarget } from '../run-target.js';
import { recordPhaseDone } from '../../run/phase-done.js';
import { checkPhaseKey, startPhase } from '../../run/phases.js';
import { parseCommand, usageError, type ParsedFor } from '../args.js';
import { errorUsage, phaseDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';

const DEF = phaseDefinition();
const SHORT = errorUsage(DEF);
type Parsed = ParsedFor<typeof DEF>;

/** The run bus's exit codes (those of pipeline-state.sh), as `baton run` has. */
export function face(): CompatFace {
  return { lead: 'baton phase: ', codes: COMPAT_EXITS.runBus };
}

export default async function phase(argv: string[], cli: CommandIo): Promise<number> {
  const parsed = parseCommand(DEF, argv);
  const [verb, ref, key, field] = parsed.positionals as [string, string, string, string?];
  if (!['start', 'done', 'get', 'inputs'].includes(verb)) throw usageError(`unknown phase command '${verb}'`, SHORT);
  checkPhaseKey(key);
  const { flags } = parsed;
  const run = runTarget(ref, flags, cli);
  if (verb === 'start') return await start(run, key, parsed);
  if (verb === 'done') return await done(run, key, parsed, cli);
  if (verb === 'get') return await get(run, key, field, cli);
  const { resolveInputs, formatInputs } = await import('../../run/inputs.js');
  const doc = await run.read();
  const inputs = resolveInputs(doc, key);
  cli.out(formatInputs(inputs, doc));
  return inputs.inputs.every((input) => input.value !== undefined) ? EXIT.ok : EXIT.refused;
}

async function start(run: Run, key: string, parsed: Parsed): Promise<number> {
  const agent = parsed.flags.agent;
  if (!agent) throw new BatonError('usage', `phase start needs --agent NAME (the agent that runs ${key})`);
  await run.update(
    (doc) => void startPhase(doc, key, { agent, now: isoSeconds(), rerun: parsed.flags.rerun === true }),
    'phase',
  );
  return EXIT.ok;
}

async function done(run: Run, key: string, parsed: Parsed, cli: CommandIo): Promise<number> {
  const { flags } = parsed;
  const warnings = await recordPhaseDone(
    run,
    key,
    {
      agent: flags.agent,
      outputs: (flags.output ?? []).map((pair) => outputPair(pair, flags.json === true)),
      evidence: flags.evidence ?? [],
      workItems: flags['work-item'] ?? [],
      also: flags.also,
      promote: flags.promote === true,
    },
    { output: '--output', evidence: '--evidence PATH', also: '--also', promote: '--promote' },
  );
  for (const warning of warnings) cli.err(`${warning}\n`);
  return EXIT.ok;
}

async function get(run: Run, key: string, field: string | undefined, cli: CommandIo): Promise<number> {
  const doc = await run.read();
  const entry = doc.phases?.[key];
  if (!entry)
    throw new BatonError(
      'not_found',
      `run ${doc.session} has no phase ${key}; phases: ${Object.keys(doc.phases ?? {}).join(', ') || 'none'}`,
    );
  const value = lookup(entry, field);
  if (value !== undefined && value !== null) cli.out(`${formatValue(value)}\n`);
  return EXIT.ok;
}

/** `--output KEY=VALUE`; the key itself is checked with the other faces' outputs (recordPhaseDone). */
function outputPair(pair: string, json: boolean): [string, Json] {
  const at = pair.indexOf('=');
  const name = pair.slice(0, at);
  if (at <= 0)
    throw new BatonError(
      'usage',
      `--output ${JSON.stringify(pair)} must be KEY=VALUE with a key of letters, digits, '_', '-', '.'`,
    );
  const text = pair.slice(at + 1);
  return [name, json ? parseJsonArg(text, `--output ${name}`) : text];
}
