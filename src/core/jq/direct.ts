/**
 * Direct evaluation of the terms that yield exactly one value and can neither catch nor break:
 * literals, `.`, variables, operators, indexing, and builtins over them, and a closure parameter
 * bound to such a term. `ev` passes every output to a continuation while its producer stays on
 * the JS stack, so a condition such as `n == 0` inside a recursive def, whose `n` is a chain of
 * closures as long as the recursion is deep, kept that whole chain on the stack under everything
 * evaluated after it: a few dozen nested calls exhausted the stack. Returning the value instead
 * unwinds it first. Nothing here holds a try or a label, so an error raised downstream unwinds
 * through the same handlers either way; steps are charged exactly as `ev` charges them.
 */
import type { Node } from './ast.js';
import { chargeValue, tick } from './budget.js';
import { nativeNamed } from './builtins.js';
import { Raised } from './jq-errors.js';
import type { Env } from './evaluate.js';
import { LOOPS } from './loops.js';
import { binop } from './ops.js';
import { getIndex } from './path-functions.js';
import type { Json } from './values.js';
import { truthy } from './values.js';

// Natives `call` handles itself (generators, paths, errors): never direct.
const SPECIAL = new Set(['empty/0', 'error/1', 'not/0', 'path/1', 'getpath/1', 'range/2']);

type Shape = boolean | 'closure';
const shapes = new WeakMap<Node, Shape>();

/** Whether `n` is direct whatever its closures are (true), never (false), or if they are. */
function shape(n: Node): Shape {
  let s = shapes.get(n);
  if (s === undefined) {
    s = computeShape(n);
    shapes.set(n, s);
  }
  return s;
}

function both(a: Shape, b: Shape): Shape {
  if (a === false || b === false) return false;
  return a === 'closure' || b === 'closure' ? 'closure' : true;
}

function computeShape(n: Node): Shape {
  switch (n.t) {
    case 'identity':
    case 'literal':
    case 'var':
      return true;
    case 'neg':
      return shape(n.e);
    case 'binop':
    case 'and':
    case 'or':
      return both(shape(n.left), shape(n.right));
    case 'index':
      return n.opt ? false : both(shape(n.term), shape(n.index));
    case 'call': {
      const target = n.target;
      if (!target) return false;
      if (target.kind === 'param') return 'closure';
      if (target.kind !== 'native' || SPECIAL.has(target.name) || LOOPS[target.name] || !nativeNamed(target.name))
        return false;
      return n.args.reduce<Shape>((s, a) => both(s, shape(a)), true);
    }
    default:
      return false;
  }
}

function closureOf(env: Env, name: string): (Env & { k: 'closure' }) | null {
  for (let e = env; e; e = e.parent) if (e.k === 'closure' && e.name === name) return e;
  return null;
}

/** Whether `direct(n, ..., env)` may be used: `n`, and every closure it calls in `env`, is direct. */
export function canDirect(n: Node, env: Env): boolean {
  const s = shape(n);
  return s === 'closure' ? closuresDirect(n, env) : s;
}

function closuresDirect(n: Node, env: Env): boolean {
  switch (n.t) {
    case 'neg':
      return canDirect(n.e, env);
    case 'binop':
    case 'and':
    case 'or':
      return canDirect(n.left, env) && canDirect(n.right, env);
    case 'index':
      return canDirect(n.term, env) && canDirect(n.index, env);
    case 'call': {
      if (n.target?.kind !== 'param') return n.args.every((a) => canDirect(a, env));
      const c = closureOf(env, n.name);
      return c !== null && canDirect(c.node, c.env);
    }
    default:
      return true;
  }
}

/** The one value of `n` (for which `canDirect` holds), evaluated in `ev`'s order. */
export function direct(n: Node, input: Json, env: Env): Json {
  tick();
  switch (n.t) {
    case 'identity':
      return input;
    case 'literal':
      return n.value;
    case 'var':
      for (let e = env; e; e = e.parent) if (e.k === 'var' && e.name === n.name) return e.value;
      throw new Raised(`$${n.name} is not defined`);
    case 'neg':
      return (nativeNamed('_negate/0') as (x: Json) => Json)(direct(n.e, input, env));
    case 'binop': {
      const b = direct(n.right, input, env);
      const v = binop(n.op, direct(n.left, input, env), b);
      chargeValue(v);
      return v;
    }
    case 'and':
    case 'or': {
      const a = direct(n.left, input, env);
      if (n.t === 'and' ? !truthy(a) : truthy(a)) return n.t === 'or';
      return truthy(direct(n.right, input, env));
    }
    case 'index': {
      const k = direct(n.index, input, env);
      return getIndex(direct(n.term, input, env), k);
    }
    case 'call': {
      if (n.target?.kind === 'param') {
        const c = closureOf(env, n.name) as Env & { k: 'closure' };
        return direct(c.node, input, c.env);
      }
      const fn = nativeNamed((n.target as { name: string }).name) as (input: Json, ...args: Json[]) => Json;
      const vals = new Array<Json>(n.args.length);
      // As `call`: C-coded builtins evaluate their arguments last-to-first.
      for (let i = n.args.length - 1; i >= 0; i--) vals[i] = direct(n.args[i] as Node, input, env);
      const v = fn(input, ...vals);
      chargeValue(v);
      return v;
    }
    default:
      throw new Error(`direct evaluation of ${n.t}`);
  }
}
