import type { FuncDef, Node } from './ast.js';
import { bind, buildObject, call, interpolate } from './evaluate-calls.js';
import { chargeValue, tick } from './budget.js';
import { canDirect, direct } from './direct.js';
import { Raised, unsupported } from './jq-errors.js';
import { nativeNamed } from './builtins.js';
import { applyFormat } from './format.js';
import { binop } from './ops.js';
import { getIndex } from './path-functions.js';
import type { Json, JsonObject } from './values.js';
import { describe, isObject, kindOf, truthy } from './values.js';

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

export function notPath(path: Path, what: string): void {
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
  tick();
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
              if (t !== null && !Array.isArray(t) && typeof t !== 'string')
                throw new Raised(`Cannot index ${kindOf(t)} with object`);
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
          for (let i = 0; i < t.length; i++) {
            tick();
            emit(t[i] as Json, p && p.concat([i]));
          }
        } else if (isObject(t)) {
          for (const k of Object.keys(t)) {
            tick();
            emit(t[k] as Json, p && p.concat([k]));
          }
        } else if (!n.opt) {
          throw new Raised(`Cannot iterate over ${describe(t)}`);
        }
      });
      return;
    case 'pipe':
      if (path === null && canDirect(n.left, env)) {
        ev(n.right, direct(n.left, input, env), null, env, emit);
        return;
      }
      ev(n.left, input, path, env, (v, p) => ev(n.right, v, p, env, emit));
      return;
    case 'comma':
      ev(n.left, input, path, env, emit);
      ev(n.right, input, path, env, emit);
      return;
    case 'neg':
      notPath(path, 'negation');
      ev(n.e, input, null, env, (v) => emit((nativeNamed('_negate/0') as (x: Json) => Json)(v), null));
      return;
    case 'binop':
      notPath(path, `operator ${n.op}`);
      if (canDirect(n.right, env)) {
        const b = direct(n.right, input, env);
        ev(n.left, input, null, env, (a) => {
          const v = binop(n.op, a, b);
          chargeValue(v);
          emit(v, null);
        });
        return;
      }
      ev(n.right, input, null, env, (b) =>
        ev(n.left, input, null, env, (a) => {
          const v = binop(n.op, a, b);
          chargeValue(v);
          emit(v, null);
        }),
      );
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
      if (canDirect(n.cond, env)) {
        ev(truthy(direct(n.cond, input, env)) ? n.then : n.else, input, path, env, emit);
        return;
      }
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
            ev(n.update, cur, null, env2, (o) => {
              state = o;
            });
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
      if (n.e)
        ev(n.e, input, null, env, (v) => {
          tick();
          out.push(v);
        });
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
