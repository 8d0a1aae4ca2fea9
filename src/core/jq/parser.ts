import type { FuncDef, Node } from './ast.js';
import { syntaxError, unsupported } from './jq-errors.js';
import type { Token } from './lexer.js';
import { tokenize } from './lexer.js';
import { TermParser } from './parser-terms.js';

// Binding powers and associativity mirror jq 1.6's yacc precedence table.
const INFIX: Record<string, [number, 'left' | 'right' | 'none']> = {
  '|': [1, 'right'],
  ',': [2, 'left'],
  '//': [3, 'right'],
  '=': [4, 'none'],
  '|=': [4, 'none'],
  '+=': [4, 'none'],
  '-=': [4, 'none'],
  '*=': [4, 'none'],
  '/=': [4, 'none'],
  '%=': [4, 'none'],
  '//=': [4, 'none'],
  or: [5, 'left'],
  and: [6, 'left'],
  '==': [7, 'none'],
  '!=': [7, 'none'],
  '<': [7, 'none'],
  '<=': [7, 'none'],
  '>': [7, 'none'],
  '>=': [7, 'none'],
  '+': [8, 'left'],
  '-': [8, 'left'],
  '*': [9, 'left'],
  '/': [9, 'left'],
  '%': [9, 'left'],
};

export function parse(src: string): Node {
  const p = new Parser(tokenize(src), src);
  const n = p.parseExp(0);
  p.expectEnd();
  return n;
}

class Parser extends TermParser {
  parseDefPublic(): FuncDef {
    const d = this.parseDef();
    this.expectEnd();
    return d;
  }

  parseExp(minBp: number): Node {
    let left = this.parsePrefix();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' && t.kind !== 'kw') break;
      const info = INFIX[t.value];
      if (!info || info[0] < minBp) break;
      const [bp, assoc] = info;
      this.next();
      const right = this.parseExp(assoc === 'right' ? bp : bp + 1);
      left = combine(t, left, right);
      const n = this.peek();
      if (assoc === 'none' && (n.kind === 'op' || n.kind === 'kw') && INFIX[n.value]?.[0] === bp) this.fail(n);
    }
    return left;
  }

  private parsePrefix(): Node {
    const t = this.peek();
    if (t.kind === 'kw') {
      switch (t.value) {
        case 'def': {
          const def = this.parseDef();
          return { t: 'funcdef', def, rest: this.parseExp(0) };
        }
        case 'reduce':
        case 'foreach': {
          this.next();
          const source = this.parseTerm(true);
          this.expect('as');
          const pattern = this.parsePattern();
          this.expect('(');
          const init = this.parseExp(0);
          this.expect(';');
          const update = this.parseExp(0);
          let extract: Node | null = null;
          if (t.value === 'foreach' && this.is(';')) {
            this.next();
            extract = this.parseExp(0);
          }
          this.expect(')');
          return t.value === 'reduce'
            ? { t: 'reduce', source, pattern, init, update }
            : { t: 'foreach', source, pattern, init, update, extract };
        }
        case 'if':
          return this.parseIf();
        case 'try': {
          this.next();
          const body = this.parsePrefix();
          let handler: Node | null = null;
          if (this.is('catch')) {
            this.next();
            handler = this.parsePrefix();
          }
          return { t: 'try', body, handler };
        }
        case 'label': {
          this.next();
          const v = this.next();
          if (v.kind !== 'var') this.fail(v);
          this.expect('|');
          return { t: 'label', name: v.value, body: this.parseExp(0) };
        }
        case 'import':
        case 'include':
        case 'module':
          throw unsupported(`modules (${t.value})`, t.pos);
      }
    }
    if (this.is('-')) {
      this.next();
      return { t: 'neg', e: this.parseExp(INFIX['+']![0] + 1) };
    }
    return this.parseTerm(false);
  }

  private parseIf(): Node {
    this.next();
    const cond = this.parseExp(0);
    this.expect('then');
    const then = this.parseExp(0);
    if (this.is('elif')) return { t: 'if', cond, then, else: this.parseIf() };
    if (!this.is('else')) this.fail();
    this.next();
    const els = this.parseExp(0);
    this.expect('end');
    return { t: 'if', cond, then, else: els };
  }

  private parseDef(): FuncDef {
    this.expect('def');
    const name = this.next();
    if (name.kind !== 'ident' && name.kind !== 'kw') this.fail(name);
    if (name.kind === 'kw') this.fail(name);
    const params: FuncDef['params'] = [];
    if (this.is('(')) {
      this.next();
      for (;;) {
        const p = this.next();
        if (p.kind === 'var' && p.value !== '__loc__') params.push({ name: p.value, isVar: true });
        else if (p.kind === 'ident') params.push({ name: p.value, isVar: false });
        else this.fail(p);
        if (this.is(';')) {
          this.next();
          continue;
        }
        this.expect(')');
        break;
      }
    }
    this.expect(':');
    const body = this.parseExp(0);
    this.expect(';');
    return { name: name.value, params, body };
  }

  protected sub(toks: Token[]): Parser {
    return new Parser(toks, this.src);
  }
}

const ASSIGN_OPS = new Set(['=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);

function combine(t: Token, left: Node, right: Node): Node {
  const op = t.value;
  if (op === '|') return { t: 'pipe', left, right };
  if (op === ',') return { t: 'comma', left, right };
  if (op === '//') return { t: 'alt', left, right };
  if (op === 'and' || op === 'or') return { t: op, left, right };
  if (ASSIGN_OPS.has(op)) return { t: 'assign', op, lhs: left, rhs: right };
  return foldConstants(t, { t: 'binop', op, left, right });
}

/**
 * jq 1.6 folds arithmetic on two number literals at compile time; that is observable:
 * `1/0` is a compile error ("Division by zero?") while `0/0` yields nan (printed null).
 */
function foldConstants(t: Token, n: Node & { t: 'binop' }): Node {
  const { left: a, right: b } = n;
  if (a.t !== 'literal' || b.t !== 'literal' || typeof a.value !== 'number' || typeof b.value !== 'number') return n;
  const x = a.value;
  const y = b.value;
  let v: number | boolean;
  switch (n.op) {
    case '+':
      v = x + y;
      break;
    case '-':
      v = x - y;
      break;
    case '*':
      v = x * y;
      break;
    case '/':
      v = x / y;
      if (v === Infinity || v === -Infinity) throw syntaxError(`Division by zero? at column ${t.pos + 1}`, t.pos);
      break;
    default:
      return n;
  }
  return { t: 'literal', value: v };
}

/** Parses a single `def ...;` (used for the builtin prelude). */
export function parseDef(src: string): FuncDef {
  const p = new Parser(tokenize(src), src) as unknown as { parseDefPublic(): FuncDef };
  return p.parseDefPublic();
}
