/**
 * Command-line parsing: node:util parseArgs (strict), after a small pre-pass for what it cannot
 * express: jq's `--arg NAME VALUE` / `--argjson NAME JSON` (two values), and negative numbers
 * as values (`set f.json n -1 --json`), which parseArgs would take for options. Each command's
 * options come from its entry in definitions.ts.
 */
import { BatonError } from '../core/errors.js';
import { parseArgs as nodeParseArgs } from 'node:util';
import { parseJsonArg, type Json } from '../core/json.js';
import { errorUsage, type CommandDef } from './definitions.js';

export interface ArgSpec {
  /** Flags without a value, with their short aliases (e.g. { raw: ['-r'] }). */
  booleans?: Record<string, string[]>;
  /** Flags with one value. */
  strings?: string[];
  /** Accept `--arg NAME VALUE` and `--argjson NAME JSON`. */
  vars?: boolean;
  /** How many positionals: [min, max]. */
  positionals: [number, number];
  /** The usage line(s) shown under a usage error, without the `usage: ` prefix. */
  usage: string;
}

export interface Parsed {
  positionals: string[];
  flags: Record<string, string | true | undefined>;
  vars: Record<string, Json>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Marks an argument that looks like an option but is a negative number; argv cannot hold NUL. */
const LITERAL = '\0';

/** A usage error: one line saying what was wrong, then the usage line (main prints both). */
export function usageError(why: string, usage: string): BatonError {
  return new BatonError('usage', `${why}\n${usage.startsWith('usage:') ? usage : `usage: ${usage}`}`);
}

/** Parses a command's arguments with the options its definition declares. */
export function parseCommand(def: CommandDef, args: string[]): Parsed {
  const booleans: Record<string, string[]> = {};
  const strings: string[] = [];
  for (const option of def.options) {
    if (option.name === 'arg' || option.name === 'argjson') continue;
    if (option.value === undefined) booleans[option.name] = option.short ? [option.short] : [];
    else strings.push(option.name);
  }
  return parseArgs(args, {
    booleans,
    strings,
    vars: def.vars ?? false,
    positionals: def.positionals ?? [0, Infinity],
    usage: errorUsage(def),
  });
}

export function parseArgs(args: string[], spec: ArgSpec): Parsed {
  const vars: Record<string, Json> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (spec.vars && (arg === '--arg' || arg === '--argjson')) {
      const name = args[i + 1];
      const value = args[i + 2];
      if (name === undefined || value === undefined) throw usageError(`${arg} needs a NAME and a VALUE`, spec.usage);
      if (!NAME.test(name))
        throw usageError(`${arg} name '${name}' is not a jq identifier (letters, digits, _)`, spec.usage);
      vars[name] = arg === '--arg' ? value : parseJsonArg(value, `--argjson ${name}`);
      i += 2;
      continue;
    }
    rest.push(/^-\d/.test(arg) ? LITERAL + arg : arg);
  }
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, aliases] of Object.entries(spec.booleans ?? {})) {
    const short = aliases.find((alias) => /^-[A-Za-z]$/.test(alias));
    options[name] = short ? { type: 'boolean', short: short.slice(1) } : { type: 'boolean' };
  }
  for (const name of spec.strings ?? []) options[name] = { type: 'string' };
  let result: ReturnType<typeof nodeParseArgs>;
  try {
    result = nodeParseArgs({ args: rest, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError(describeParseError(error as Error & { code?: string }), spec.usage);
  }
  const literal = (text: string) => (text.startsWith(LITERAL) ? text.slice(1) : text);
  const flags: Parsed['flags'] = {};
  for (const [name, value] of Object.entries(result.values)) {
    if (value === true || typeof value === 'string') flags[name] = value === true ? true : literal(value);
  }
  const positionals = result.positionals.map(literal);
  const [min, max] = spec.positionals;
  if (positionals.length < min)
    throw usageError(
      `missing argument (${min === max ? min : `at least ${min}`} expected, got ${positionals.length})`,
      spec.usage,
    );
  if (positionals.length > max) throw usageError(`unexpected argument '${positionals[max]}'`, spec.usage);
  return { positionals, flags, vars };
}

/** node:util's messages are long and suggest `--`; ours name the option and what is wrong. */
function describeParseError(error: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${option.replace(LITERAL, '')}'`;
  if (/does not take an argument/.test(error.message)) return `option ${option} takes no value`;
  if (/ambiguous/.test(error.message))
    return `option ${option} needs a value (write ${option}=VALUE for a value that starts with -)`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `option ${option} needs a value`;
  return error.message.split('\n')[0] as string;
}

export function intFlag(value: string | true | undefined, name: string, fallback?: number): number | undefined {
  if (value === undefined || value === true) return fallback;
  if (!/^\d+$/.test(value)) throw new BatonError('usage', `--${name} must be a whole number, got '${value}'`);
  return Number(value);
}

/** The writer recorded in history: --as, else the agent session the host tells us about. */
export function writerFrom(flag: string | true | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof flag === 'string') return flag;
  return env.BATON_WRITER || env.CLAUDE_CODE_SESSION_ID || env.agent_id || undefined;
}

/**
 * Pulls out flags that may repeat (`--evidence a --evidence b`), which parseArgs keeps only once;
 * the rest goes to parseCommand.
 */
export function takeRepeated(
  argv: string[],
  names: string[],
  usage: string,
): { lists: Record<string, string[]>; rest: string[] } {
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
    if (value === undefined) throw usageError(`--${name} needs a value`, usage);
    (lists[name] ??= []).push(value);
  }
  return { lists, rest };
}
