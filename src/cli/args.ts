/**
 * Command-line parsing: node:util parseArgs (strict), after a small pre-pass for what it cannot
 * express: jq's `--arg NAME VALUE` / `--argjson NAME JSON` (two values), options that repeat
 * (`--evidence a --evidence b`, which parseArgs keeps once), and negative numbers as values
 * (`set f.json n -1 --json`), which parseArgs would take for options. Each command's options
 * come from its entry in definitions.ts, and so do the types of its flags (Flags).
 */
import { isAsciiDigit } from '../core/ascii.js';
import { BatonError } from '../core/errors.js';
import { parseArgs as nodeParseArgs } from 'node:util';
import { parseJsonArg, type Json } from '../core/json.js';
import { errorUsage, type CommandDef, type Flags } from './definitions.js';

export interface ArgSpec {
  /** Flags without a value, with their short aliases (e.g. { raw: ['-r'] }). */
  booleans?: Record<string, string[]>;
  /** Flags with one value. */
  strings?: string[];
  /** Flags that may repeat, each value collected in order (`--name V` or `--name=V`). */
  lists?: string[];
  /** Accept `--arg NAME VALUE` and `--argjson NAME JSON`. */
  vars?: boolean;
  /** How many positionals: [min, max]. */
  positionals: readonly [number, number];
  /** The usage line(s) shown under a usage error, without the `usage: ` prefix. */
  usage: string;
}

/** The parse of a command line by the definition `D`. */
export type ParsedFor<D extends CommandDef> = Parsed<Flags<D['options']>>;

/** What a command line gives; `flags` typed from the command's definition by parseCommand. */
export interface Parsed<F = Record<string, string | true | string[] | undefined>> {
  positionals: string[];
  flags: F;
  vars: Record<string, Json>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Marks an argument that looks like an option but is a negative number; argv cannot hold NUL. */
const LITERAL = '\0';

/** A usage error: one line saying what was wrong, then the usage line (main prints both). */
export function usageError(why: string, usage: string): BatonError {
  return new BatonError('usage', `${why}\n${usage.startsWith('usage:') ? usage : `usage: ${usage}`}`);
}

/** Parses a command's arguments with the options its definition declares, typed from them. */
export function parseCommand<const D extends CommandDef>(def: D, args: string[]): Parsed<Flags<D['options']>> {
  const booleans: Record<string, string[]> = {};
  const strings: string[] = [];
  const lists: string[] = [];
  for (const option of def.options) {
    if (option.name === 'arg' || option.name === 'argjson') continue;
    if (option.value === undefined) booleans[option.name] = option.short ? [option.short] : [];
    else (option.repeat ? lists : strings).push(option.name);
  }
  const parsed = parseArgs(args, {
    booleans,
    strings,
    lists,
    vars: def.vars ?? false,
    positionals: def.positionals ?? [0, Infinity],
    usage: errorUsage(def),
  });
  return parsed as Parsed<Flags<D['options']>>;
}

export function parseArgs(args: string[], spec: ArgSpec): Parsed {
  const lists: Record<string, string[]> = {};
  const vars: Record<string, Json> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const list = repeatedName(arg, spec.lists);
    if (list !== undefined) {
      const eq = arg.indexOf('=');
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined) throw usageError(`--${list} needs a value`, spec.usage);
      (lists[list] ??= []).push(value);
      continue;
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
    rest.push(arg.length > 1 && arg[0] === '-' && isAsciiDigit(arg.charCodeAt(1)) ? LITERAL + arg : arg);
  }
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, aliases] of Object.entries(spec.booleans ?? {})) {
    const short = aliases.find((alias) => /^-[A-Za-z]$/.test(alias));
    options[name] = short ? { type: 'boolean', short: short.slice(1) } : { type: 'boolean' };
  }
  for (const name of spec.strings ?? []) options[name] = { type: 'string' };
  let result: Pick<ReturnType<typeof nodeParseArgs>, 'values' | 'positionals'>;
  const dash = rest.findIndex((arg) => arg.startsWith('-'));
  if (dash < 0 || rest[dash] === '--') {
    // No option word before a `--`: parseArgs would give these words as positionals, the `--`
    // dropped. Answered here because loading parseArgs (node:util's lazy internal module) is
    // ~0.7 ms of every `get` and `update` process, most of what they pay over a bare Node start.
    result = { values: {}, positionals: dash < 0 ? rest : [...rest.slice(0, dash), ...rest.slice(dash + 1)] };
  } else {
    try {
      result = nodeParseArgs({ args: rest, options, strict: true, allowPositionals: true });
    } catch (error) {
      throw usageError(describeParseError(error as Error & { code?: string }), spec.usage);
    }
  }
  const literal = (text: string) => (text.startsWith(LITERAL) ? text.slice(1) : text);
  const flags: Parsed['flags'] = { ...lists };
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

/**
 * The lenient grammar of the commands that stand in for shell helpers and hook commands (`task`,
 * `hook`, the transcript reader), from the same definitions: an option is its exact word and its
 * value the next word, whatever it looks like (the Eneo helpers pass `--default "$2"`, which may
 * start with `-`); any other word is a positional, and every word after `--` is one. Strict
 * parsing would refuse calls these tools have always accepted.
 */
export function parseLoose<const D extends CommandDef>(
  def: D,
  args: string[],
): { positionals: string[]; flags: Flags<D['options']> } {
  const flags: Record<string, string | true | string[]> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    const option = arg.startsWith('--') ? def.options.find((o) => o.name === arg.slice(2)) : undefined;
    if (option?.value === undefined) {
      if (option) flags[option.name] = true;
      else positionals.push(arg);
    } else if (i + 1 < args.length) {
      const value = args[++i] as string;
      if (option.repeat) ((flags[option.name] as string[] | undefined) ?? (flags[option.name] = [])).push(value);
      else flags[option.name] = value;
    } else positionals.push(arg);
  }
  return { positionals, flags: flags as Flags<D['options']> };
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

export function intFlag(value: string | undefined, name: string, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new BatonError('usage', `--${name} must be a whole number, got '${value}'`);
  return Number(value);
}

/** The writer recorded in history: --as, else the agent session the host tells us about. */
export function writerFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) return flag;
  return env.BATON_WRITER || env.CLAUDE_CODE_SESSION_ID || env.agent_id || undefined;
}

/** The repeatable option `arg` names (`--name` or `--name=VALUE`), if it is one. */
function repeatedName(arg: string, names: readonly string[] | undefined): string | undefined {
  if (!names?.length || !arg.startsWith('--')) return undefined;
  const eq = arg.indexOf('=');
  const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
  return names.includes(name) ? name : undefined;
}
