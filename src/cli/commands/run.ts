/**
 * `baton run <init|set|append|get|clear|show> SESSION [FIELD] [VALUE]` and `baton run clean
 * [SESSION]`: the pipeline-state verbs
 * with the original's arguments, output lines and exit codes. `--compat` as the first
 * argument is what compat/pipeline-state/pipeline-state.sh passes: every argument is then
 * positional (a value such as `--json` is stored as text) and extra arguments are ignored, as the
 * original script did.
 */
import { BatonError, COMPAT_EXITS, EXIT, type CompatFace } from '../../core/errors.js';
import { parseJsonArg, type Json } from '../../core/json.js';
import { Run } from '../../run/run-document.js';
import { runTarget } from '../run-target.js';
import type { Outcome } from '../../run/fields.js';
import { parseCommand, type ParsedFor } from '../args.js';
import { runDefinition } from '../definitions.js';

type Parsed = ParsedFor<ReturnType<typeof runDefinition>>;
import type { CommandIo } from '../../core/command-io.js';

const VERBS = ['init', 'set', 'append', 'get', 'clear', 'show', 'clean'];

/**
 * pipeline-state.sh's exit codes and `Error: ` lead (its callers test for 0/1, so a lock timeout's
 * 6 would read as "unknown failure"). `clean` is baton's own verb (the original had none): a run
 * folder linked out of the project keeps the engine's exit 4 there.
 */
export function face(_cli: CommandIo, args: string[]): CompatFace {
  return {
    lead: 'Error: ',
    codes: args[0] === 'clean' ? { ...COMPAT_EXITS.runBus, unsafe_path: EXIT.unsafe } : COMPAT_EXITS.runBus,
  };
}

export default async function run(argv: string[], cli: CommandIo): Promise<number> {
  const compat = argv[0] === '--compat';
  const prog = compat ? 'pipeline-state.sh' : 'baton run';
  const usage = `Usage: ${prog} <init|set|append|get|clear> <session_id> [field] [value]`;
  // The original's usage line, and its exit 1.
  const misuse = (text: string) => new BatonError('usage', text, { compat: { exitCode: EXIT.refused, lead: '' } });
  const parsed: Parsed = compat
    ? { positionals: argv.slice(1), flags: {}, vars: {} }
    : parseCommand(runDefinition(), argv);
  const [verb = '', session = '', field, value] = parsed.positionals;
  // The original had no clean (its init wiped .ai_log/), so the compat shim keeps it unknown.
  if (verb === 'clean' && !compat) return await clean(session, field, parsed, cli);
  if (verb === '' || session === '') throw misuse(usage);
  if (!VERBS.includes(verb) || (compat && (verb === 'show' || verb === 'clean')))
    throw misuse(`Unknown command: ${verb}\n${usage}`);
  const { flags } = parsed;
  const target = runTarget(session, flags, cli);
  const outcome = await dispatch(verb, target, field, value, parsed, cli);
  for (const warning of outcome.warnings) cli.err(`${warning}\n`);
  if (outcome.out) cli.out(outcome.out);
  return EXIT.ok;
}

async function dispatch(
  verb: string,
  target: Run,
  field: string | undefined,
  value: string | undefined,
  parsed: Parsed,
  cli: CommandIo,
): Promise<Outcome> {
  const fields = await import('../../run/fields.js');
  const { flags } = parsed;
  switch (verb) {
    case 'init': {
      if (flags.contract === undefined) return fields.initRun(target);
      const { loadContract } = await import('../../run/contract.js');
      return fields.initRun(target, await loadContract(flags.contract, cli.cwd, target.location.root));
    }
    case 'get':
      return fields.getField(target, field, flags.default);
    case 'clear':
      return fields.clearRun(target);
    case 'show': {
      const { showRun, showRunJson } = await import('../../run/show.js');
      return { out: await (flags.json ? showRunJson(target) : showRun(target)), warnings: [] };
    }
  }
  // set and append
  if (field === undefined || field === '') throw new BatonError('not_found', 'field required');
  const typed = typedValue(value ?? '', flags);
  return verb === 'set' ? fields.setField(target, field, typed) : fields.appendField(target, field, typed);
}

async function clean(session: string, extra: string | undefined, parsed: Parsed, cli: CommandIo): Promise<number> {
  if (extra !== undefined)
    throw new BatonError(
      'usage',
      `baton run clean takes at most one SESSION (the caller's own run), got ${JSON.stringify(extra)} too`,
    );
  const { cleanRuns, parseDuration } = await import('../../run/clean.js');
  const { flags } = parsed;
  const olderThan = flags['older-than'] === undefined ? undefined : parseDuration(flags['older-than']);
  const name = flags.name;
  const own = session === '' ? undefined : new Run(session, { cwd: cli.cwd, env: cli.env }, name).location;
  const root = own?.root ?? (await import('../../project/root.js')).defaultRoot(cli.cwd, cli.env);
  cli.out(cleanRuns({ root, own: own?.label, olderThanMs: olderThan, force: flags.force === true }));
  return EXIT.ok;
}

function typedValue(text: string, flags: Parsed['flags']): Json {
  if (flags.number) {
    const value = parseJsonArg(text, 'VALUE (--number)');
    if (typeof value !== 'number')
      throw new BatonError(
        'usage',
        `--number needs a JSON number, got ${JSON.stringify(text)}; drop --number to store text`,
      );
    return value;
  }
  return flags.json ? parseJsonArg(text, 'VALUE (--json)') : text;
}
