import { BatonError } from '../core/errors.js';
import { parseJsonArg, type Json } from '../core/json.js';

/**
 * Command-line parsing. Not node:util parseArgs: jq-style `--arg NAME VALUE` takes two values,
 * which parseArgs cannot express, and a second parser on top would cost more than this.
 */
export interface ArgSpec {
  /** Flags without a value, with their short aliases (e.g. { raw: ['-r'] }). */
  booleans?: Record<string, string[]>;
  /** Flags with one value. */
  strings?: string[];
  /** Accept `--arg NAME VALUE` and `--argjson NAME JSON`. */
  vars?: boolean;
  /** How many positionals: [min, max]. */
  positionals: [number, number];
  usage: string;
}

export interface Parsed {
  positionals: string[];
  flags: Record<string, string | true | undefined>;
  vars: Record<string, Json>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseArgs(args: string[], spec: ArgSpec): Parsed {
  const parsed: Parsed = { positionals: [], flags: {}, vars: {} };
  const usage = (why: string) => new BatonError('usage', `${why}; usage: ${spec.usage}`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (spec.vars && (arg === '--arg' || arg === '--argjson')) {
      const name = args[i + 1];
      const value = args[i + 2];
      if (name === undefined || value === undefined) throw usage(`${arg} needs a NAME and a VALUE`);
      if (!NAME.test(name)) throw usage(`${arg} name '${name}' is not a jq identifier (letters, digits, _)`);
      parsed.vars[name] = arg === '--arg' ? value : parseJsonArg(value, `--argjson ${name}`);
      i += 2;
      continue;
    }
    const boolean = Object.entries(spec.booleans ?? {}).find(([name, aliases]) => arg === `--${name}` || aliases.includes(arg));
    if (boolean) {
      parsed.flags[boolean[0]] = true;
      continue;
    }
    const [flag, inline] = arg.startsWith('--') ? splitInline(arg) : [arg, undefined];
    if (arg.startsWith('--') && spec.strings?.includes(flag.slice(2))) {
      const value = inline ?? args[++i];
      if (value === undefined) throw usage(`${flag} needs a value`);
      parsed.flags[flag.slice(2)] = value;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-' && !/^-\d/.test(arg)) throw usage(`unknown option ${arg}`);
    parsed.positionals.push(arg);
  }
  const [min, max] = spec.positionals;
  if (parsed.positionals.length < min) throw usage('missing argument');
  if (parsed.positionals.length > max) throw usage(`unexpected argument '${parsed.positionals[max]}'`);
  return parsed;
}

function splitInline(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
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
