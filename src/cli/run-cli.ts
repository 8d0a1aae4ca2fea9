/**
 * The one error boundary of the CLI: commands throw BatonError, and only here do errors become
 * messages and exit codes. A command that stands in for another tool exports its `face`, and its
 * errors are reported with that tool's exit codes and lead unless they carry their own. How a
 * command is loaded is the caller's: main.ts loads the built bundle, an in-process test the
 * source module, so both go through the same boundary.
 */
import { BatonError, EXIT, fromSystemError, inFace, isBatonError, type CompatFace } from '../core/errors.js';
import type { Command } from './process-io.js';
import type { CommandIo } from '../core/command-io.js';
import { commandList, helpText, type CommandDef, type Definitions } from './definitions.js';
import { STORE_SCHEMES } from '../stores/schemes.js';

declare const BATON_VERSION: string | undefined;

export interface CommandModule {
  default: Command;
  face?: (cli: CommandIo, args: string[]) => CompatFace;
}

/**
 * Runs `baton ARGV` with this I/O; `load` gives a command's module by name, `definitions` the
 * definitions of the commands the caller carries (a CLI bundle only its own: bundle-main.ts).
 */
export async function runCli(
  argv: string[],
  cli: CommandIo,
  load: (name: string) => CommandModule | Promise<CommandModule>,
  definitions: Definitions,
): Promise<number> {
  const global = globalOptions(argv, cli.env);
  if (typeof global === 'string') {
    cli.err(`baton: ${global}\nusage: baton [--store URL] <command> [args]\n`);
    return EXIT.usage;
  }
  const [name, ...args] = global;
  if (name === undefined) {
    cli.err(commandList(definitions.all()));
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') return help(cli, definitions, name === 'help' ? args : []);
  if (name === '--version' || name === '-V') {
    cli.out(`baton ${typeof BATON_VERSION === 'string' ? BATON_VERSION : 'dev'}\n`);
    return EXIT.ok;
  }
  const def = definitions.named(name);
  if (!def && definitions.own) {
    cli.err(`baton ${name}: internal error: this build's bundle for '${name}' does not carry it; reinstall baton\n`);
    return EXIT.internal;
  }
  if (!def) {
    cli.err(`baton: unknown command '${name}'\nusage: baton <command> [args]   (baton help lists the commands)\n`);
    return EXIT.usage;
  }
  const asked = helpAsked(def, args);
  if (asked !== undefined) return help(cli, definitions, [name, ...(asked ? [asked] : [])]);
  let face: CompatFace | undefined;
  try {
    const command = await load(name);
    face = command.face?.(cli, args);
    return await command.default(args, cli);
  } catch (error) {
    // A permission, read-only or full-disk error is the user's environment, not a bug: one line.
    const known =
      (isBatonError(error) ? error : fromSystemError(error)) ??
      new BatonError('internal', `internal error: ${(error as Error)?.stack ?? String(error)}`);
    const shown = face ? inFace(inSandbox(known, cli.env), face) : inSandbox(known, cli.env);
    // A jq runtime error is about the document's values, which the message cannot show.
    const hint =
      shown.code === 'jq_runtime' && name === 'update' ? `; look at the values with 'baton get ${args[0]}'` : '';
    cli.err(`${shown.compat?.lead ?? `baton ${name}: `}${shown.message}${hint}\n`);
    return shown.exitCode;
  }
}

/**
 * Takes the global options off the front of argv. `--store URL` becomes BATON_STORE, so the
 * command and every process it starts (a compat script, a hook) open the same store. Returns the
 * rest, or a usage error.
 */
function globalOptions(argv: string[], env: CommandIo['env']): string[] | string {
  let rest = argv;
  while (rest[0]?.startsWith('--store')) {
    const [option, ...after] = rest;
    const inline = option === '--store' ? undefined : /^--store=(.*)$/s.exec(option)?.[1];
    if (option !== '--store' && inline === undefined) return `unknown option '${option}'`;
    const url = inline ?? after[0];
    if (!url) return `--store needs a URL: ${STORE_SCHEMES}`;
    // The process's own environment for the CLI (cli.env is process.env), so children inherit it.
    env.BATON_STORE = url;
    rest = inline === undefined ? after.slice(1) : after;
  }
  return rest;
}

/**
 * Is this a request for help: `-h`/`--help` anywhere before `--` for a command with one grammar;
 * for one with subcommands (whose values are free text), only right after the command or after
 * its subcommand. Returns the subcommand ('' for none), or undefined when help was not asked.
 */
function helpAsked(def: CommandDef, args: string[]): string | undefined {
  const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';
  if (def.subcommands) {
    if (isHelp(args[0])) return '';
    if (args[0] && def.subcommands[args[0]] && isHelp(args[1])) return args[0];
    return undefined;
  }
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some(isHelp) ? '' : undefined;
}

/** `baton help [CMD [SUB]]`: usage on stdout, exit 0; an unknown name is a usage error. */
function help(cli: CommandIo, definitions: Definitions, [name, sub]: string[]): number {
  if (name === undefined) {
    cli.out(commandList(definitions.all()));
    return EXIT.ok;
  }
  const def = definitions.named(name);
  if (!def || (sub !== undefined && !def.subcommands?.[sub])) {
    cli.err(
      `baton help: no ${def ? `subcommand '${sub}' of ${name}` : `command '${name}'`}\nusage: baton help [COMMAND [SUBCOMMAND]]\n`,
    );
    return EXIT.usage;
  }
  cli.out(helpText(def, sub));
  return EXIT.ok;
}

/**
 * Inside the phase sandbox (plugin/sandbox/run.sh exports BATON_PHASE_SANDBOX) baton's state is
 * read-only by design, so "remount it read-write" is not the fix: the call must run outside it.
 */
function inSandbox(error: BatonError, env: CommandIo['env']): BatonError {
  if (error.code !== 'io' || env.BATON_PHASE_SANDBOX !== '1' || !error.message.endsWith('(EROFS)')) return error;
  const what = error.message.replace(/: the file system is read-only;.*$/, '');
  return new BatonError(
    'io',
    `${what}: baton's state is read-only inside the phase sandbox; run the baton command on its own, its arguments literal or single-quoted, so it runs outside the sandbox (EROFS)`,
    { cause: error, ...(error.compat ? { compat: error.compat } : {}) },
  );
}
