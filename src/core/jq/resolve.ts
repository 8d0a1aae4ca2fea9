import type { FuncDef, Node, Pattern } from './ast.js';
import { syntaxError, unsupported } from './jq-errors.js';
import { parseDef } from './parser.js';
import { isJq16Builtin, preludeSource, refusalReason } from './prelude.js';
import { nativeNamed } from './builtins.js';
import { LOOPS } from './loops.js';
import { parsedPrelude } from '../../generated/jq-prelude.js';

// Implemented directly by the evaluator (jq bytecodes or path-aware C functions).
const SPECIAL = new Set(['empty/0', 'error/1', 'path/1', 'getpath/1', 'range/2', 'not/0']);

/** Not a legal jq name, so no program can bind or shadow it. */
export const NOW_VAR = '*now';

type Scope =
  | { kind: 'var'; name: string; parent: Scope }
  | { kind: 'fn'; def: FuncDef; parent: Scope }
  | { kind: 'param'; name: string; parent: Scope }
  | { kind: 'label'; name: string; parent: Scope }
  | null;

const preludeCache = new Map<string, FuncDef>();

function preludeDef(key: string): FuncDef | undefined {
  const cached = preludeCache.get(key);
  if (cached) return cached;
  const def = unresolvedDef(key);
  if (def === undefined) return undefined;
  preludeCache.set(key, def); // before resolving, so recursive definitions terminate
  resolveDef(def, null, new Set());
  return def;
}

// What assignment desugars to (_assign, _modify) was parsed at build time: scripts/compile-jq-prelude.mjs.
function unresolvedDef(key: string): FuncDef | undefined {
  const parsed = parsedPrelude[key];
  if (parsed !== undefined) return JSON.parse(parsed) as FuncDef;
  const src = preludeSource(key);
  return src === undefined ? undefined : parseDef(src);
}

let tmpCounter = 0;

/** Resolves names (jq reports unknown ones at compile time) and desugars assignment operators. */
export function resolve(n: Node, scope: Scope, globals: Set<string>): Node {
  const r = (x: Node, s: Scope = scope): Node => resolve(x, s, globals);
  switch (n.t) {
    case 'identity':
    case 'literal':
    case 'format':
      return n;
    case 'index':
      return { ...n, term: r(n.term), index: r(n.index) };
    case 'slice':
      return { ...n, term: r(n.term), from: n.from && r(n.from), to: n.to && r(n.to) };
    case 'each':
      return { ...n, term: r(n.term) };
    case 'pipe':
    case 'comma':
    case 'and':
    case 'or':
    case 'alt':
      return { ...n, left: r(n.left), right: r(n.right) };
    case 'binop':
      return { ...n, left: r(n.left), right: r(n.right) };
    case 'neg':
      return { ...n, e: r(n.e) };
    case 'if':
      return { ...n, cond: r(n.cond), then: r(n.then), else: r(n.else) };
    case 'try':
      return { ...n, body: r(n.body), handler: n.handler && r(n.handler) };
    case 'array':
      return { ...n, e: n.e && r(n.e) };
    case 'object':
      return { ...n, entries: n.entries.map((e) => ({ key: r(e.key), value: r(e.value) })) };
    case 'string':
      return { ...n, parts: n.parts.map((p) => (typeof p === 'string' ? p : r(p))) };
    case 'var':
      for (let s = scope; s; s = s.parent) if (s.kind === 'var' && s.name === n.name) return n;
      if (globals.has(n.name)) return n;
      if (n.name === 'ENV') throw unsupported(refusalReason('$ENV'), n.pos);
      throw syntaxError(`$${n.name} is not defined`, n.pos);
    case 'as': {
      const source = r(n.source);
      return { ...n, source, body: r(n.body, bindPattern(n.pattern, scope)) };
    }
    case 'reduce':
    case 'foreach': {
      const inner = bindPattern(n.pattern, scope);
      const base = { ...n, source: r(n.source), init: r(n.init), update: r(n.update, inner) };
      if (n.t === 'foreach') return { ...base, t: 'foreach', extract: n.extract && r(n.extract, inner) };
      return base;
    }
    case 'label':
      return { ...n, body: r(n.body, { kind: 'label', name: n.name, parent: scope }) };
    case 'break':
      for (let s = scope; s; s = s.parent) if (s.kind === 'label' && s.name === n.name) return n;
      throw syntaxError(`$*label-${n.name} is not defined`, n.pos);
    case 'funcdef': {
      const inner: Scope = { kind: 'fn', def: n.def, parent: scope };
      resolveDef(n.def, inner, globals);
      return { ...n, rest: r(n.rest, inner) };
    }
    case 'assign':
      return r(desugarAssign(n));
    case 'call':
      return resolveCall(n, scope, globals);
  }
}

function resolveDef(def: FuncDef, scope: Scope, globals: Set<string>): void {
  // `def f: ...` sees itself (recursion) and its parameters; `$p` params bind both p and $p.
  let s: Scope = scope ?? { kind: 'fn', def, parent: null };
  for (const p of def.params) {
    s = { kind: 'param', name: p.name, parent: s };
    if (p.isVar) s = { kind: 'var', name: p.name, parent: s };
  }
  def.body = resolve(def.body, s, globals);
}

function resolveCall(n: Node & { t: 'call' }, scope: Scope, globals: Set<string>): Node {
  const key = `${n.name}/${n.args.length}`;
  const args = n.args.map((a) => resolve(a, scope, globals));
  for (let s = scope; s; s = s.parent) {
    if (s.kind === 'param' && s.name === n.name && n.args.length === 0)
      return { ...n, args, target: { kind: 'param', name: n.name } };
    if (s.kind === 'fn' && s.def.name === n.name && s.def.params.length === n.args.length)
      return { ...n, args, target: { kind: 'def', def: s.def } };
  }
  // `now` is the instant of the run the caller passes (a write's own timestamp), held in the root scope.
  if (key === 'now/0') return { t: 'var', name: NOW_VAR, pos: n.pos };
  if (SPECIAL.has(key) || nativeNamed(key) || LOOPS[key]) return { ...n, args, target: { kind: 'native', name: key } };
  const def = preludeDef(key);
  if (def) return { ...n, args, target: { kind: 'def', def } };
  if (isJq16Builtin(key)) throw unsupported(refusalReason(key), n.pos);
  throw syntaxError(`${key} is not defined`, n.pos);
}

function bindPattern(p: Pattern, scope: Scope): Scope {
  switch (p.kind) {
    case 'pvar':
      return { kind: 'var', name: p.name, parent: scope };
    case 'parray':
      return p.elems.reduce((s, e) => bindPattern(e, s), scope);
    case 'pobject':
      return p.entries.reduce<Scope>((s, e) => {
        let s2 = s;
        if (e.bindVar) s2 = { kind: 'var', name: e.bindVar, parent: s2 };
        return e.sub ? bindPattern(e.sub, s2) : s2;
      }, scope);
  }
}

const UPDATE_OPS: Record<string, string> = { '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%' };

/** jq 1.6 parser.y: `=` is _assign, `|=` is _modify, `op=` binds the RHS first (gen_update). */
function desugarAssign(n: Node & { t: 'assign' }): Node {
  const call = (name: string, args: Node[]): Node => ({ t: 'call', name, args, pos: 0 });
  if (n.op === '=') return call('_assign', [n.lhs, n.rhs]);
  if (n.op === '|=') return call('_modify', [n.lhs, n.rhs]);
  const tmp = `*tmp${tmpCounter++}`;
  const v: Node = { t: 'var', name: tmp, pos: 0 };
  const update: Node =
    n.op === '//='
      ? { t: 'alt', left: { t: 'identity' }, right: v }
      : { t: 'binop', op: UPDATE_OPS[n.op] as string, left: { t: 'identity' }, right: v };
  return { t: 'as', source: n.rhs, pattern: { kind: 'pvar', name: tmp }, body: call('_modify', [n.lhs, update]) };
}
