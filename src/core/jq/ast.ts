import type { Json } from './values.js';

export type Pattern =
  | { kind: 'pvar'; name: string }
  | { kind: 'parray'; elems: Pattern[] }
  | { kind: 'pobject'; entries: { key: string; bindVar?: string; sub?: Pattern }[] };

export interface FuncDef {
  name: string;
  params: { name: string; isVar: boolean }[];
  body: Node;
}

/** Where a call resolves; fixed at compile time so evaluation never searches by name. */
export type CallTarget =
  { kind: 'def'; def: FuncDef } | { kind: 'param'; name: string } | { kind: 'native'; name: string };

export type Node =
  | { t: 'identity' }
  | { t: 'literal'; value: Json }
  | { t: 'index'; term: Node; index: Node; opt: boolean }
  | { t: 'slice'; term: Node; from: Node | null; to: Node | null; opt: boolean }
  | { t: 'each'; term: Node; opt: boolean }
  | { t: 'pipe'; left: Node; right: Node }
  | { t: 'comma'; left: Node; right: Node }
  | { t: 'neg'; e: Node }
  | { t: 'binop'; op: string; left: Node; right: Node }
  | { t: 'and' | 'or' | 'alt'; left: Node; right: Node }
  | { t: 'assign'; op: string; lhs: Node; rhs: Node }
  | { t: 'if'; cond: Node; then: Node; else: Node }
  | { t: 'try'; body: Node; handler: Node | null }
  | { t: 'reduce'; source: Node; pattern: Pattern; init: Node; update: Node }
  | { t: 'foreach'; source: Node; pattern: Pattern; init: Node; update: Node; extract: Node | null }
  | { t: 'funcdef'; def: FuncDef; rest: Node }
  | { t: 'call'; name: string; args: Node[]; target?: CallTarget; pos: number }
  | { t: 'var'; name: string; pos: number }
  | { t: 'as'; source: Node; pattern: Pattern; body: Node }
  | { t: 'label'; name: string; body: Node }
  | { t: 'break'; name: string; pos: number }
  | { t: 'array'; e: Node | null }
  | { t: 'object'; entries: { key: Node; value: Node }[] }
  | { t: 'string'; parts: (string | Node)[]; fmt: string }
  | { t: 'format'; fmt: string };
