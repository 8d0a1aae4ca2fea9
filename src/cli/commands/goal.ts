/**
 * `baton goal <verb> ...`: the goal lifecycle of the orchestrate workflow. Exit codes are
 * the workflow's own: 0 done, 1 refused, 2 usage, 3 the user must choose. Refusals print one line
 * `<tool>: <reason>`, where the tool is `goal.sh` when run through the drop-in script.
 */
import { realpathSync } from 'node:fs';
import { BatonError, COMPAT_EXITS, EXIT, type CompatFace } from '../../core/errors.js';
import { goalRoot, toolNames } from '../../goal/goal-paths.js';
import { foldNewlines } from '../../goal/template.js';
import { usageText } from '../../goal/commands/usage.js';
import type { GoalContext } from '../../goal/commands/goal-context.js';
import type { CommandIo } from '../../core/command-io.js';
import { parseLoose } from '../args.js';
import { type CommandDef, goalDefinition, usageLine } from '../definitions.js';

type Verb = (ctx: GoalContext, args: string[]) => Promise<number>;

/** goal.sh's exit codes, and its lead: the tool's name as it is run. */
export function face(cli: CommandIo): CompatFace {
  return { lead: `${toolNames(cli.env).goal}: `, codes: COMPAT_EXITS.goal };
}

const VERBS: Record<string, () => Promise<Verb>> = {
  start: async () => (await import('../../goal/commands/start.js')).default,
  resume: async () => (await import('../../goal/commands/resume.js')).default,
  pause: async () => (await import('../../goal/commands/pause.js')).default,
  close: async () => (await import('../../goal/commands/close.js')).default,
  list: async () => (await import('../../goal/commands/list.js')).default,
  touch: async () => (await import('../../goal/commands/edit.js')).touch,
  now: async () => (await import('../../goal/commands/edit.js')).now,
  land: async () => (await import('../../goal/commands/edit.js')).land,
};

/** Usage checks come before every other check: `now` alone is 2 even with no goal. */
function isUsageError(verb: string | undefined, args: string[]): boolean {
  if (verb === undefined || !(verb in VERBS)) return true;
  // A sentence of spaces and newlines only would start a goal with an empty title.
  if (verb === 'start') return (args[0] ?? '') === '' || foldNewlines(args.slice(1).join(' ')).trim() === '';
  if (verb === 'now') {
    const entry = args.join(' ').replaceAll('\n', ' ');
    return (entry.startsWith('- ') ? entry.slice(2) : entry) === '';
  }
  if (verb === 'land') return (args[0] ?? '') === '';
  return false;
}

export default async function goal(argv: string[], cli: CommandIo): Promise<number> {
  const names = toolNames(cli.env);
  const [verb, ...args] = argv;
  // The transcript reader is baton's own verb; goal.sh never had it (its usage says so), and
  // compat/orchestrate/transcript-text.sh calls it without the drop-in marker.
  if (verb === 'transcript' && !names.compat) {
    const { positionals, flags } = parseLoose(goalDefinition(), args);
    const reader = (await import('../../goal/transcript-text.js')).default;
    return reader({ positionals, since: flags.since, tail: flags.tail }, cli);
  }
  if (isUsageError(verb, args)) {
    // goal.sh prints its usage block; `baton goal` says what was wrong, then the usage.
    const def: CommandDef = goalDefinition();
    const why =
      verb === undefined
        ? 'missing command'
        : verb === 'start' && (args[0] ?? '') !== '' && args.slice(1).join('') !== ''
          ? "blank sentence for start (white space only): give the goal's sentence in words"
          : def.subcommands?.[verb]
            ? `missing argument for ${verb}`
            : `unknown command '${verb}'`;
    const text = names.compat ? usageText(names.goal).trimEnd() : `baton goal: ${why}\n${usageLine(def, verb)}`;
    throw new BatonError('usage', text, { compat: { exitCode: EXIT.usage, lead: '' } });
  }
  const root = goalRoot(cli.env);
  if (root === undefined)
    throw new BatonError('not_found', 'HOME is not set; the goals live in $HOME/.claude/orchestrate');
  let cwd = cli.cwd;
  try {
    cwd = realpathSync(cli.cwd);
  } catch {
    // keep the given one
  }
  const run = await (VERBS[verb as string] as () => Promise<Verb>)();
  return await run({ root, names, cli, cwd }, args);
}
