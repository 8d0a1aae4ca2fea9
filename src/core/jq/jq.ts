/**
 * baton's jq engine: a hand-written interpreter for a subset of jq 1.6 plus the builtins later
 * releases added (docs/jq.md lists the dialect), exact where it answers.
 *
 * Why: every `baton get/update` is its own Node process (~41 ms bare start), so the engine must
 * load in a few ms with no dependencies. jq-wasm is exact but costs ~120 ms to instantiate;
 * @michaelhomer/jqjs answers some programs wrongly. So: pure TS, jq 1.6 semantics, and a typed
 * refusal (`jq_unsupported`) for anything outside the subset instead of a guess.
 *
 * What it costs and how exact it is, measured: docs/benchmarks.md ("The jq engine") and
 * docs/jq.md ("Measured").
 */
import type { FuncDef, Node } from './ast.js';
import { BatonError } from '../errors.js';
import { checkShape, resolveLimits, type Limits } from '../limits.js';
import { withBudget } from './budget.js';
import { JqError, Raised } from './jq-errors.js';
import type { Env } from './evaluate.js';
import { ev } from './evaluate.js';
import { dumpCompact } from './format.js';
import { parse } from './parser.js';
import { loadRegexEngine } from './regex.js';
import { NOW_VAR, resolve } from './resolve.js';
import type { Json } from './values.js';

export type { Json } from './values.js';
export { JqError } from './jq-errors.js';
// Where they are defined: a `get` of a plain path prints through them without loading the engine.
export { formatJqCompact, formatJqRaw } from './format.js';

export interface RunOptions {
  /** The instant `now` answers (a write passes its own timestamp); default: when `run` is called. */
  now?: Date;
  /**
   * Budgets and bounds (defaults in ../limits.ts): past its step or time budget a run throws
   * `jq_budget`; an output nested deeper than maxDepth or larger than maxDocumentBytes throws
   * `too_large`.
   */
  limits?: Partial<Limits>;
}

export interface JqProgram {
  run(input: Json, vars?: Record<string, Json>, options?: RunOptions): Json[];
  /** Loads what the program needs beyond the core (the regex engine); await it before `run`. */
  ready(): Promise<void>;
}

/**
 * Programs compiled in this process, by expression and variable names: a long-running process (the
 * library, a server) applies the same few updates again and again, and compiling `.n += 1` cost
 * about a tenth of a PostgreSQL commit's client time (docs/benchmarks.md). A program holds no state
 * between runs. Bounded: past the limit the oldest goes.
 */
const compiled = new Map<string, JqProgram>();
const COMPILED_LIMIT = 128;

/** Compiles `expr`; `varNames` are the `$name`s the caller will pass to `run` (like --arg/--argjson). */
export function compileJq(expr: string, varNames: string[] = []): JqProgram {
  const key = `${varNames.join('\0')}\u0001${expr}`;
  const known = compiled.get(key);
  if (known) return known;
  const program = compileProgram(expr, [...varNames]);
  if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, program);
  return program;
}

function compileProgram(expr: string, varNames: string[]): JqProgram {
  const names = new Set(varNames);
  const ast = wrap(() => resolve(parse(expr), null, names));
  const regex = callsNative(ast, '_match_impl/3');
  return {
    run(input: Json, vars: Record<string, Json> = {}, options: RunOptions = {}): Json[] {
      let env: Env = { k: 'var', name: NOW_VAR, value: (options.now ?? new Date()).getTime() / 1000, parent: null };
      for (const name of varNames) {
        if (!Object.prototype.hasOwnProperty.call(vars, name))
          throw new JqError('jq_runtime', `$${name} was declared but no value was passed`);
        env = { k: 'var', name, value: vars[name] as Json, parent: env };
      }
      const all = resolveLimits(options.limits);
      const out = wrap(
        () => withBudget({ steps: all.jqSteps, timeoutMs: all.jqTimeoutMs }, () => execute(ast, input, env)),
        ast,
      );
      for (const value of out) checkShape(value, all, 'a result of the jq expression');
      return out;
    },
    ready: () => (regex ? loadRegexEngine() : Promise.resolve()),
  };
}

function execute(ast: Node, input: Json, env: Env): Json[] {
  const out: Json[] = [];
  ev(ast, input, null, env, (v) => {
    out.push(v);
  });
  return out;
}

/** Whether a run can reach the native `key`, through any definition it calls. */
function callsNative(ast: Node, key: string): boolean {
  const seen = new Set<FuncDef>();
  const visit = (x: unknown): boolean => {
    if (!x || typeof x !== 'object') return false;
    if (Array.isArray(x)) return x.some(visit);
    const n = x as Record<string, unknown>;
    if (n.t === 'call') {
      const target = n.target as { kind: string; name?: string; def?: FuncDef } | undefined;
      if (target?.kind === 'native' && target.name === key) return true;
      if (target?.kind === 'def' && target.def && !seen.has(target.def)) {
        seen.add(target.def);
        if (visit(target.def.body)) return true;
      }
      return visit(n.args);
    }
    if (n.t === 'literal') return false;
    if (n.t === 'funcdef') return visit(n.rest);
    return Object.values(n).some(visit);
  };
  return visit(ast);
}

/** Whether a run can reach a definition that calls itself, directly or through others. */
function reachesRecursiveDef(ast: Node): boolean {
  const done = new Set<FuncDef>();
  const open = new Set<FuncDef>();
  const visit = (x: unknown): boolean => {
    if (!x || typeof x !== 'object') return false;
    if (Array.isArray(x)) return x.some(visit);
    const n = x as Record<string, unknown>;
    if (n.t === 'literal') return false;
    if (n.t === 'call') {
      const target = n.target as { kind: string; def?: FuncDef } | undefined;
      const def = target?.kind === 'def' ? target.def : undefined;
      if (def && open.has(def)) return true;
      if (def && !done.has(def)) {
        open.add(def);
        if (visit(def.body)) return true;
        open.delete(def);
        done.add(def);
      }
      return visit(n.args);
    }
    if (n.t === 'funcdef') return visit(n.rest);
    return Object.values(n).some(visit);
  };
  return visit(ast);
}

const ERROR_VALUE_CHARS = 10_000;

function wrap<T>(f: () => T, ast?: Node): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof BatonError) throw e;
    if (e instanceof Raised) {
      const v = e.value;
      // Outside the budget here: a huge error value is cut, not printed whole.
      const text = typeof v === 'string' ? v : dumpCompact(v, ERROR_VALUE_CHARS);
      throw new JqError(
        'jq_runtime',
        typeof v === 'string'
          ? v
          : `${text.length > ERROR_VALUE_CHARS ? text.slice(0, ERROR_VALUE_CHARS) + '...' : text} (not a string)`,
      );
    }
    // The engine recurses on the JS stack (continuation passing): a runaway recursion ends
    // here, as does a value too large for V8 (`Invalid string length`).
    if (e instanceof RangeError) {
      if (/call stack/i.test(e.message)) {
        // Without a recursive def the only thing that grows the stack is a value's nesting (every
        // walk of a value, serialising or comparing it, recurses per level).
        if (ast && !reachesRecursiveDef(ast)) {
          throw new JqError(
            'jq_budget',
            "the jq expression met a value nested deeper than baton's engine can walk (its JS stack, a few thousand levels of arrays or objects), such as `reduce range(100000) as $i (null; [.])`; the expression has no recursive def",
            undefined,
            'bound the nesting depth of the values it builds',
          );
        }
        throw new JqError(
          'jq_budget',
          "the jq expression recursed deeper than baton's engine allows (its JS stack, a few hundred nested calls of a recursive def, or a value nested that deep); an endless recursion such as `def f: f; f` ends here",
          undefined,
          'bound the recursion, or rewrite it with reduce, foreach or limit',
        );
      }
      throw new JqError('jq_budget', `the jq expression built a value too large for memory (${e.message})`);
    }
    throw e;
  }
}
