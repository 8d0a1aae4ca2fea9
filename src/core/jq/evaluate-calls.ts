import type { FuncDef, Node, Pattern } from './ast.js';
import { chargeValue, tick } from './budget.js';
import { canDirect, direct } from './direct.js';
import { Raised, unsupported } from './jq-errors.js';
import { nativeNamed } from './builtins.js';
import { applyFormat, toText } from './format.js';
import { LOOPS } from './loops.js';
import { getIndex, getPath } from './path-functions.js';
import type { Json, JsonObject } from './values.js';
import { describe, kindOf, objPut, truthy } from './values.js';
import type { Emit, Env, Path } from './evaluate.js';
import { ev, notPath } from './evaluate.js';

// Top-level frames for builtin-prelude definitions, which are not nested in user scopes.
const preludeFrames = new WeakMap<FuncDef, Env>();

export function buildObject(
  entries: { key: Node; value: Node }[],
  i: number,
  acc: JsonObject,
  input: Json,
  env: Env,
  emit: Emit,
): void {
  if (i === entries.length) {
    emit(acc, null);
    return;
  }
  const entry = entries[i] as { key: Node; value: Node };
  ev(entry.key, input, null, env, (k) => {
    if (typeof k !== 'string') throw new Raised(`Cannot use ${describe(k)} as object key`);
    ev(entry.value, input, null, env, (v) => {
      const next: JsonObject = {};
      const keys = Object.keys(acc);
      tick(keys.length + 1);
      for (const key of keys) objPut(next, key, acc[key] as Json);
      objPut(next, k, v);
      buildObject(entries, i + 1, next, input, env, emit);
    });
  });
}

/** `"a\(x)b\(y)"` is jq's nested `+`, whose right operand loops outermost: later parts vary slowest. */
export function interpolate(
  parts: (string | Node)[],
  i: number,
  suffix: string,
  fmt: string,
  input: Json,
  env: Env,
  emit: Emit,
): void {
  if (i < 0) {
    emit(suffix, null);
    return;
  }
  const part = parts[i] as string | Node;
  if (typeof part === 'string') {
    interpolate(parts, i - 1, part + suffix, fmt, input, env, emit);
    return;
  }
  ev(part, input, null, env, (v) => {
    const s = fmt === 'text' ? toText(v) : applyFormat(fmt, v);
    chargeValue(s);
    interpolate(parts, i - 1, s + suffix, fmt, input, env, emit);
  });
}

export function bind(p: Pattern, v: Json, env: Env, k: (env: Env) => void): void {
  switch (p.kind) {
    case 'pvar':
      k({ k: 'var', name: p.name, value: v, parent: env });
      return;
    case 'parray': {
      if (v !== null && !Array.isArray(v)) throw new Raised(`Cannot index ${kindOf(v)} with number`);
      const step = (i: number, e: Env): void => {
        if (i === p.elems.length) return k(e);
        bind(p.elems[i] as Pattern, getIndex(v, i), e, (e2) => step(i + 1, e2));
      };
      step(0, env);
      return;
    }
    case 'pobject': {
      const step = (i: number, e: Env): void => {
        if (i === p.entries.length) return k(e);
        const entry = p.entries[i] as (typeof p.entries)[number];
        const sub = getIndex(v, entry.key);
        const e1: Env = entry.bindVar ? { k: 'var', name: entry.bindVar, value: sub, parent: e } : e;
        if (entry.sub) bind(entry.sub, sub, e1, (e2) => step(i + 1, e2));
        else step(i + 1, e1);
      };
      step(0, env);
      return;
    }
  }
}

export function call(n: Node & { t: 'call' }, input: Json, path: Path, env: Env, emit: Emit): void {
  const target = n.target;
  if (!target) throw unsupported(`unresolved call ${n.name}`);
  if (target.kind === 'param') {
    for (let e = env; e; e = e.parent) {
      if (e.k === 'closure' && e.name === n.name) {
        ev(e.node, input, path, e.env, emit);
        return;
      }
    }
    throw unsupported(`closure ${n.name} not found`);
  }
  if (target.kind === 'def') {
    const def = target.def;
    let defEnv: Env = null;
    for (let e = env; e; e = e.parent)
      if (e.k === 'fn' && e.def === def) {
        defEnv = e;
        break;
      }
    if (!defEnv) {
      defEnv = preludeFrames.get(def) ?? null;
      if (!defEnv) {
        defEnv = { k: 'fn', def, parent: null };
        preludeFrames.set(def, defEnv);
      }
    }
    bindParams(def, n.args, 0, input, env, defEnv, (bodyEnv) => ev(def.body, input, path, bodyEnv, emit));
    return;
  }
  callNative(target.name, n.args, input, path, env, emit);
}

function bindParams(
  def: FuncDef,
  args: Node[],
  i: number,
  input: Json,
  callerEnv: Env,
  acc: Env,
  k: (env: Env) => void,
): void {
  if (i === def.params.length) return k(acc);
  const param = def.params[i] as FuncDef['params'][number];
  const arg = args[i] as Node;
  const withClosure: Env = { k: 'closure', name: param.name, node: arg, env: callerEnv, parent: acc };
  if (!param.isVar) return bindParams(def, args, i + 1, input, callerEnv, withClosure, k);
  if (canDirect(arg, callerEnv)) {
    const v = direct(arg, input, callerEnv);
    return bindParams(
      def,
      args,
      i + 1,
      input,
      callerEnv,
      { k: 'var', name: param.name, value: v, parent: withClosure },
      k,
    );
  }
  ev(arg, input, null, callerEnv, (v) => {
    bindParams(def, args, i + 1, input, callerEnv, { k: 'var', name: param.name, value: v, parent: withClosure }, k);
  });
}

function callNative(key: string, args: Node[], input: Json, path: Path, env: Env, emit: Emit): void {
  switch (key) {
    case 'empty/0':
      return;
    case 'error/1':
      ev(args[0] as Node, input, null, env, (msg) => {
        // jq 1.6: error(null) is indistinguishable from backtracking, i.e. `empty`.
        if (msg !== null) throw new Raised(msg);
      });
      return;
    case 'not/0':
      notPath(path, 'not');
      emit(!truthy(input), null);
      return;
    case 'path/1':
      notPath(path, 'nested path()');
      ev(args[0] as Node, input, [], env, (_v, p) => emit(p, null));
      return;
    case 'getpath/1':
      ev(args[0] as Node, input, null, env, (p) => {
        const v = getPath(input, p);
        emit(v, path && path.concat(p as Json[]));
      });
      return;
    case 'range/2':
      notPath(path, 'range');
      ev(args[0] as Node, input, null, env, (from) => {
        ev(args[1] as Node, input, null, env, (upto) => {
          if (typeof from !== 'number' || typeof upto !== 'number') throw new Raised('Range bounds must be numeric');
          for (let x = from; x < upto; x++) {
            tick();
            emit(x, null);
          }
        });
      });
      return;
  }
  const loop = LOOPS[key];
  if (loop) return loop(args, input, path, env, emit);
  const fn = nativeNamed(key);
  if (!fn) throw unsupported(`builtin ${key}`);
  notPath(path, `builtin ${key}`);
  const vals = new Array<Json>(args.length);
  // C-coded builtins evaluate their arguments last-to-first: the last argument loops outermost.
  const step = (i: number): void => {
    if (i < 0) {
      const v = fn(input, ...vals);
      chargeValue(v);
      emit(v, null);
      return;
    }
    ev(args[i] as Node, input, null, env, (v) => {
      vals[i] = v;
      step(i - 1);
    });
  };
  step(args.length - 1);
}
