import type { FuncDef, Node, Pattern } from './ast.js';
import { Raised, unsupported } from './errors.js';
import { NATIVES } from './builtins.js';
import { applyFormat, toText } from './format.js';
import { binop } from './ops.js';
import { getIndex, getPath, sliceBounds } from './paths.js';
import type { Json, JsonObject } from './values.js';
import { describe, getOwn, isObject, kindOf, objPut, truthy } from './values.js';

export type Path = Json[] | null;
export type Emit = (v: Json, p: Path) => void;

/** Runtime scope chain; it mirrors the lexical scopes checked in resolve.ts. */
export type Env =
  | { k: 'var'; name: string; value: Json; parent: Env }
  | { k: 'fn'; def: FuncDef; parent: Env }
  | { k: 'closure'; name: string; node: Node; env: Env; parent: Env }
  | { k: 'label'; name: string; id: number; parent: Env }
  | null;

let labelIds = 0;
const preludeFrames = new WeakMap<FuncDef, Env>();

function notPath(path: Path, what: string): void {
  // jq tracks paths through any value by identity; we only follow genuine path expressions.
  if (path !== null) throw unsupported(`${what} inside a path expression (path(), assignment LHS, del)`);
}

function lookupVar(env: Env, name: string): Json {
  for (let e = env; e; e = e.parent) if (e.k === 'var' && e.name === name) return e.value;
  throw new Raised(`$${name} is not defined`);
}

/**
 * Continuation-passing evaluation. Each output is pushed to `emit` while the producing
 * generator is still live on the JS stack, so a JS exception thrown downstream unwinds through
 * the generators that produced the value, exactly like jq 1.6's backtracking unwinds its
 * fork points. That is what makes `try` catch downstream errors just as 1.6 does.
 */
export function ev(n: Node, input: Json, path: Path, env: Env, emit: Emit): void {
  switch (n.t) {
    case 'identity':
      emit(input, path);
      return;
    case 'literal':
      notPath(path, 'a literal');
      emit(n.value, null);
      return;
    case 'index':
      ev(n.index, input, null, env, (k) => {
        ev(n.term, input, path, env, (t, p) => {
          let v: Json;
          try {
            v = getIndex(t, k);
          } catch (e) {
            if (n.opt && e instanceof Raised) return;
            throw e;
          }
          emit(v, p && p.concat([k]));
        });
      });
      return;
    case 'slice': {
      const from: Node = n.from ?? { t: 'literal', value: null };
      const to: Node = n.to ?? { t: 'literal', value: null };
      ev(from, input, null, env, (f) => {
        ev(to, input, null, env, (tv) => {
          const key: JsonObject = { start: f, end: tv };
          ev(n.term, input, path, env, (t, p) => {
            let v: Json;
            try {
              if (t !== null && !Array.isArray(t) && typeof t !== 'string') throw new Raised(`Cannot index ${kindOf(t)} with object`);
              v = getIndex(t, key);
            } catch (e) {
              if (n.opt && e instanceof Raised) return;
              throw e;
            }
            emit(v, p && p.concat([key]));
          });
        });
      });
      return;
    }
    case 'each':
      ev(n.term, input, path, env, (t, p) => {
        if (Array.isArray(t)) {
          for (let i = 0; i < t.length; i++) emit(t[i] as Json, p && p.concat([i]));
        } else if (isObject(t)) {
          for (const k of Object.keys(t)) emit(t[k] as Json, p && p.concat([k]));
        } else if (!n.opt) {
          throw new Raised(`Cannot iterate over ${describe(t)}`);
        }
      });
      return;
    case 'pipe':
      ev(n.left, input, path, env, (v, p) => ev(n.right, v, p, env, emit));
      return;
    case 'comma':
      ev(n.left, input, path, env, emit);
      ev(n.right, input, path, env, emit);
      return;
    case 'neg':
      notPath(path, 'negation');
      ev(n.e, input, null, env, (v) => emit((NATIVES['_negate/0'] as (x: Json) => Json)(v), null));
      return;
    case 'binop':
      notPath(path, `operator ${n.op}`);
      ev(n.right, input, null, env, (b) => ev(n.left, input, null, env, (a) => emit(binop(n.op, a, b), null)));
      return;
    case 'and':
    case 'or':
      notPath(path, n.t);
      ev(n.left, input, null, env, (a) => {
        if (n.t === 'and' ? !truthy(a) : truthy(a)) emit(n.t === 'or', null);
        else ev(n.right, input, null, env, (b) => emit(truthy(b), null));
      });
      return;
    case 'alt': {
      let found = false;
      ev(n.left, input, path, env, (v, p) => {
        if (truthy(v)) {
          found = true;
          emit(v, p);
        }
      });
      if (!found) ev(n.right, input, path, env, emit);
      return;
    }
    case 'if':
      ev(n.cond, input, null, env, (c) => ev(truthy(c) ? n.then : n.else, input, path, env, emit));
      return;
    case 'try': {
      let caught: Raised | null = null;
      try {
        ev(n.body, input, path, env, emit);
      } catch (e) {
        if (!(e instanceof Raised)) throw e;
        caught = e;
      }
      if (caught && n.handler) {
        if (caught.label !== undefined) throw unsupported('try/catch intercepting a break (label ids are internal)');
        notPath(path, 'a catch handler');
        ev(n.handler, caught.value, null, env, emit);
      }
      return;
    }
    case 'reduce':
      notPath(path, 'reduce');
      ev(n.init, input, null, env, (init) => {
        let state: Json = init;
        ev(n.source, input, null, env, (x) => {
          bind(n.pattern, x, env, (env2) => {
            const cur = state;
            state = null; // jq 1.6: an update producing no output leaves null behind
            ev(n.update, cur, null, env2, (o) => { state = o; });
          });
        });
        emit(state, null);
      });
      return;
    case 'foreach':
      notPath(path, 'foreach');
      ev(n.init, input, null, env, (init) => {
        let state: Json = init;
        ev(n.source, input, null, env, (x) => {
          bind(n.pattern, x, env, (env2) => {
            const cur = state;
            state = null;
            ev(n.update, cur, null, env2, (o) => {
              state = o;
              if (n.extract) ev(n.extract, o, null, env2, emit);
              else emit(o, null);
            });
          });
        });
      });
      return;
    case 'funcdef':
      ev(n.rest, input, path, { k: 'fn', def: n.def, parent: env }, emit);
      return;
    case 'var':
      notPath(path, 'a variable');
      emit(lookupVar(env, n.name), null);
      return;
    case 'as':
      ev(n.source, input, null, env, (v) => bind(n.pattern, v, env, (env2) => ev(n.body, input, path, env2, emit)));
      return;
    case 'label': {
      const id = labelIds++;
      try {
        ev(n.body, input, path, { k: 'label', name: n.name, id, parent: env }, emit);
      } catch (e) {
        if (e instanceof Raised && e.label === id) return;
        throw e;
      }
      return;
    }
    case 'break': {
      for (let e = env; e; e = e.parent) {
        if (e.k === 'label' && e.name === n.name) throw new Raised({ __jq: e.id }, e.id);
      }
      throw new Raised(`$*label-${n.name} is not defined`);
    }
    case 'array': {
      notPath(path, 'array construction');
      const out: Json[] = [];
      if (n.e) ev(n.e, input, null, env, (v) => { out.push(v); });
      emit(out, null);
      return;
    }
    case 'object':
      notPath(path, 'object construction');
      buildObject(n.entries, 0, {}, input, env, emit);
      return;
    case 'string':
      notPath(path, 'a string');
      interpolate(n.parts, n.parts.length - 1, '', n.fmt, input, env, emit);
      return;
    case 'format':
      notPath(path, 'a format');
      emit(applyFormat(n.fmt, input), null);
      return;
    case 'call':
      call(n, input, path, env, emit);
      return;
    case 'assign':
      throw unsupported('unresolved assignment');
  }
}

function buildObject(entries: { key: Node; value: Node }[], i: number, acc: JsonObject, input: Json, env: Env, emit: Emit): void {
  if (i === entries.length) {
    emit(acc, null);
    return;
  }
  const entry = entries[i] as { key: Node; value: Node };
  ev(entry.key, input, null, env, (k) => {
    if (typeof k !== 'string') throw new Raised(`Cannot use ${describe(k)} as object key`);
    ev(entry.value, input, null, env, (v) => {
      const next: JsonObject = {};
      for (const key of Object.keys(acc)) objPut(next, key, acc[key] as Json);
      objPut(next, k, v);
      buildObject(entries, i + 1, next, input, env, emit);
    });
  });
}

/** `"a\(x)b\(y)"` is jq's nested `+`, whose right operand loops outermost: later parts vary slowest. */
function interpolate(parts: (string | Node)[], i: number, suffix: string, fmt: string, input: Json, env: Env, emit: Emit): void {
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
    interpolate(parts, i - 1, s + suffix, fmt, input, env, emit);
  });
}

function bind(p: Pattern, v: Json, env: Env, k: (env: Env) => void): void {
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

function call(n: Node & { t: 'call' }, input: Json, path: Path, env: Env, emit: Emit): void {
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
    for (let e = env; e; e = e.parent) if (e.k === 'fn' && e.def === def) { defEnv = e; break; }
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

function bindParams(def: FuncDef, args: Node[], i: number, input: Json, callerEnv: Env, acc: Env, k: (env: Env) => void): void {
  if (i === def.params.length) return k(acc);
  const param = def.params[i] as FuncDef['params'][number];
  const arg = args[i] as Node;
  const withClosure: Env = { k: 'closure', name: param.name, node: arg, env: callerEnv, parent: acc };
  if (!param.isVar) return bindParams(def, args, i + 1, input, callerEnv, withClosure, k);
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
      ev(args[0] as Node, input, [], env, (_v, p) => emit(p as Json[], null));
      return;
    case 'getpath/1':
      ev(args[0] as Node, input, null, env, (p) => {
        let v: Json;
        try {
          v = getPath(input, p);
        } catch (e) {
          // jq 1.6 returns null when the walk fails partway on null-ish values only via jv_getpath; keep its errors
          throw e;
        }
        emit(v, path && path.concat(p as Json[]));
      });
      return;
    case 'range/2':
      notPath(path, 'range');
      ev(args[0] as Node, input, null, env, (from) => {
        ev(args[1] as Node, input, null, env, (upto) => {
          if (typeof from !== 'number' || typeof upto !== 'number') throw new Raised('Range bounds must be numeric');
          for (let x = from; x < upto; x++) emit(x, null);
        });
      });
      return;
  }
  const fn = NATIVES[key];
  if (!fn) throw unsupported(`builtin ${key}`);
  notPath(path, `builtin ${key}`);
  const vals: Json[] = new Array(args.length);
  // C-coded builtins evaluate their arguments last-to-first: the last argument loops outermost.
  const step = (i: number): void => {
    if (i < 0) {
      emit(fn(input, ...vals), null);
      return;
    }
    ev(args[i] as Node, input, null, env, (v) => {
      vals[i] = v;
      step(i - 1);
    });
  };
  step(args.length - 1);
}

export { getOwn, sliceBounds };
