import type { FuncDef, Node, Pattern } from './ast.js';
import { syntaxError, unsupported } from './errors.js';
import type { Token } from './lexer.js';
import { tokenize } from './lexer.js';

// Binding powers and associativity mirror jq 1.6's yacc precedence table.
const INFIX: Record<string, [number, 'left' | 'right' | 'none']> = {
  '|': [1, 'right'], ',': [2, 'left'], '//': [3, 'right'],
  '=': [4, 'none'], '|=': [4, 'none'], '+=': [4, 'none'], '-=': [4, 'none'], '*=': [4, 'none'],
  '/=': [4, 'none'], '%=': [4, 'none'], '//=': [4, 'none'],
  or: [5, 'left'], and: [6, 'left'],
  '==': [7, 'none'], '!=': [7, 'none'], '<': [7, 'none'], '<=': [7, 'none'], '>': [7, 'none'], '>=': [7, 'none'],
  '+': [8, 'left'], '-': [8, 'left'], '*': [9, 'left'], '/': [9, 'left'], '%': [9, 'left'],
};

/** `?` that wraps a whole term in try (jq's `Exp '?'`), as opposed to an optional index. */
const postfixTry = new WeakSet<Node>();

export function parse(src: string): Node {
  const p = new Parser(tokenize(src), src);
  const n = p.parseExp(0);
  p.expectEnd();
  return n;
}

class Parser {
  private i = 0;
  constructor(private toks: Token[], private src: string) {}

  private peek(o = 0): Token {
    return this.toks[Math.min(this.i + o, this.toks.length - 1)] as Token;
  }
  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  private is(value: string, o = 0): boolean {
    const t = this.peek(o);
    return (t.kind === 'op' || t.kind === 'kw') && t.value === value;
  }
  private fail(t: Token = this.peek()): never {
    const what = t.kind === 'eof' ? '$end' : t.kind === 'str' ? 'string' : t.value;
    throw syntaxError(`syntax error, unexpected ${what} at column ${t.pos + 1}`, t.pos);
  }
  private expect(value: string): Token {
    if (!this.is(value)) this.fail();
    return this.next();
  }
  parseDefPublic(): FuncDef {
    const d = this.parseDef();
    this.expectEnd();
    return d;
  }
  expectEnd(): void {
    if (this.peek().kind !== 'eof') this.fail();
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
          return t.value === 'reduce' ? { t: 'reduce', source, pattern, init, update } : { t: 'foreach', source, pattern, init, update, extract };
        }
        case 'if': return this.parseIf();
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
        case 'import': case 'include': case 'module':
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
        if (this.is(';')) { this.next(); continue; }
        this.expect(')');
        break;
      }
    }
    this.expect(':');
    const body = this.parseExp(0);
    this.expect(';');
    return { name: name.value, params, body };
  }

  /** A jq `Term`: a primary followed by postfix indexing; with `as` bindings unless `noAs`. */
  private parseTerm(noAs: boolean): Node {
    let term = this.parsePrimary();
    // `.foo?` and `."foo"?` are jq's INDEX_OPT (only the lookup is optional), not a try.
    let lastIndexable = term.t === 'index';
    for (;;) {
      const t = this.peek();
      if (t.kind === 'field') {
        this.next();
        term = { t: 'index', term, index: { t: 'literal', value: t.value }, opt: false };
        lastIndexable = true;
      } else if (this.is('.') && this.peek(1).kind === 'str') {
        this.next();
        term = { t: 'index', term, index: this.parseString(this.next(), 'text'), opt: false };
        lastIndexable = true;
      } else if (this.is('[')) {
        term = this.parseBracket(term);
        lastIndexable = true;
      } else if (this.is('?')) {
        this.next();
        if (lastIndexable && (term.t === 'index' || term.t === 'slice' || term.t === 'each') && !term.opt) {
          term = { ...term, opt: true };
        } else {
          term = { t: 'try', body: term, handler: null };
          postfixTry.add(term);
          if (this.peek().kind === 'field' || this.is('[') || this.is('.') || this.is('?')) {
            throw unsupported('postfix after a try-`?`', this.peek().pos);
          }
          break;
        }
        lastIndexable = false;
      } else break;
    }
    if (!noAs && this.is('as')) {
      this.next();
      const pattern = this.parsePattern();
      this.expect('|');
      return { t: 'as', source: term, pattern, body: this.parseExp(0) };
    }
    return term;
  }

  private parseBracket(term: Node): Node {
    this.expect('[');
    if (this.is(']')) {
      this.next();
      return { t: 'each', term, opt: false };
    }
    if (this.is(':')) {
      this.next();
      const to = this.parseExp(0);
      this.expect(']');
      return { t: 'slice', term, from: null, to, opt: false };
    }
    const e = this.parseExp(0);
    if (this.is(':')) {
      this.next();
      let to: Node | null = null;
      if (!this.is(']')) to = this.parseExp(0);
      this.expect(']');
      return { t: 'slice', term, from: e, to, opt: false };
    }
    this.expect(']');
    return { t: 'index', term, index: e, opt: false };
  }

  private parsePrimary(): Node {
    const t = this.next();
    switch (t.kind) {
      case 'num': return { t: 'literal', value: t.num as number };
      case 'str': return this.parseString(t, 'text');
      case 'field': return { t: 'index', term: { t: 'identity' }, index: { t: 'literal', value: t.value }, opt: false };
      case 'format':
        if (this.peek().kind === 'str') return this.parseString(this.next(), t.value);
        return { t: 'format', fmt: t.value };
      case 'var':
        if (t.value === '__loc__') return { t: 'literal', value: { file: '<top-level>', line: lineOf(this.src, t.pos) } };
        return { t: 'var', name: t.value, pos: t.pos };
      case 'ident': {
        if (!this.is('(')) {
          if (t.value === 'null') return { t: 'literal', value: null };
          if (t.value === 'true') return { t: 'literal', value: true };
          if (t.value === 'false') return { t: 'literal', value: false };
          return { t: 'call', name: t.value, args: [], pos: t.pos };
        }
        this.next();
        const args: Node[] = [this.parseExp(0)];
        while (this.is(';')) {
          this.next();
          args.push(this.parseExp(0));
        }
        this.expect(')');
        return { t: 'call', name: t.value, args, pos: t.pos };
      }
      case 'kw':
        if (t.value === 'break') {
          const v = this.next();
          if (v.kind !== 'var') this.fail(v);
          return { t: 'break', name: v.value, pos: t.pos };
        }
        this.fail(t);
      // eslint-disable-next-line no-fallthrough
      case 'op':
        switch (t.value) {
          case '.':
            if (this.peek().kind === 'str') return { t: 'index', term: { t: 'identity' }, index: this.parseString(this.next(), 'text'), opt: false };
            return { t: 'identity' };
          case '..': return { t: 'call', name: 'recurse', args: [], pos: t.pos };
          case '(': {
            const e = this.parseExp(0);
            this.expect(')');
            return e;
          }
          case '[': {
            if (this.is(']')) { this.next(); return { t: 'array', e: null }; }
            const e = this.parseExp(0);
            this.expect(']');
            return { t: 'array', e };
          }
          case '{': return this.parseObject();
        }
    }
    return this.fail(t);
  }

  private parseString(t: Token, fmt: string): Node {
    const parts: (string | Node)[] = [];
    for (const part of t.parts ?? []) {
      if (typeof part === 'string') parts.push(part);
      else {
        const sub = new Parser(part, this.src);
        const e = sub.parseExp(0);
        sub.expectEnd();
        parts.push(e);
      }
    }
    if (parts.length === 1 && typeof parts[0] === 'string') return { t: 'literal', value: parts[0] };
    return { t: 'string', parts, fmt };
  }

  private parseObject(): Node {
    const entries: { key: Node; value: Node }[] = [];
    if (this.is('}')) { this.next(); return { t: 'object', entries }; }
    for (;;) {
      const t = this.next();
      if (t.kind === 'var') {
        if (t.value === '__loc__') this.fail(t);
        entries.push({ key: { t: 'literal', value: t.value }, value: { t: 'var', name: t.value, pos: t.pos } });
      } else if (t.kind === 'ident' || t.kind === 'kw') {
        const key: Node = { t: 'literal', value: t.value };
        if (this.is(':')) { this.next(); entries.push({ key, value: this.parseExpD() }); }
        else if (t.kind === 'ident') entries.push({ key, value: { t: 'index', term: { t: 'identity' }, index: key, opt: false } });
        else this.fail();
      } else if (t.kind === 'str') {
        const key = this.parseString(t, 'text');
        if (this.is(':')) { this.next(); entries.push({ key, value: this.parseExpD() }); }
        else entries.push({ key, value: { t: 'index', term: { t: 'identity' }, index: key, opt: false } });
      } else if (t.kind === 'op' && t.value === '(') {
        const key = this.parseExp(0);
        this.expect(')');
        this.expect(':');
        entries.push({ key, value: this.parseExpD() });
      } else if (t.kind === 'format') {
        throw unsupported('format string as object key', t.pos);
      } else this.fail(t);
      if (this.is(',')) { this.next(); continue; }
      this.expect('}');
      return { t: 'object', entries };
    }
  }

  /** Object values are jq's restricted `ExpD`: terms, negation and pipes only. */
  private parseExpD(): Node {
    let left: Node;
    if (this.is('-')) { this.next(); left = { t: 'neg', e: this.parseExpD() }; }
    else {
      left = this.parseTerm(true);
      if (postfixTry.has(left)) throw unsupported('try-`?` in an object value', this.peek().pos);
    }
    if (this.is('|')) { this.next(); return { t: 'pipe', left, right: this.parseExpD() }; }
    return left;
  }

  private parsePattern(): Pattern {
    const t = this.next();
    if (t.kind === 'var') {
      if (t.value === '__loc__') this.fail(t);
      return { kind: 'pvar', name: t.value };
    }
    if (t.kind === 'op' && t.value === '[') {
      const elems: Pattern[] = [this.parsePattern()];
      while (this.is(',')) { this.next(); elems.push(this.parsePattern()); }
      this.expect(']');
      return { kind: 'parray', elems };
    }
    if (t.kind === 'op' && t.value === '{') {
      const entries: { key: string; bindVar?: string; sub?: Pattern }[] = [];
      for (;;) {
        const k = this.next();
        if (k.kind === 'var') {
          if (k.value === '__loc__') this.fail(k);
          const entry: { key: string; bindVar?: string; sub?: Pattern } = { key: k.value, bindVar: k.value };
          if (this.is(':')) { this.next(); entry.sub = this.parsePattern(); }
          entries.push(entry);
        } else if (k.kind === 'ident' || k.kind === 'kw') {
          this.expect(':');
          entries.push({ key: k.value, sub: this.parsePattern() });
        } else if (k.kind === 'str') {
          const key = this.parseString(k, 'text');
          if (key.t !== 'literal') throw unsupported('interpolated key in a destructuring pattern', k.pos);
          this.expect(':');
          entries.push({ key: key.value as string, sub: this.parsePattern() });
        } else if (k.kind === 'op' && k.value === '(') {
          throw unsupported('computed key in a destructuring pattern', k.pos);
        } else this.fail(k);
        if (this.is(',')) { this.next(); continue; }
        this.expect('}');
        return { kind: 'pobject', entries };
      }
    }
    return this.fail(t);
  }
}

function lineOf(src: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (src[i] === '\n') line++;
  return line;
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
    case '+': v = x + y; break;
    case '-': v = x - y; break;
    case '*': v = x * y; break;
    case '/':
      v = x / y;
      if (v === Infinity || v === -Infinity) throw syntaxError(`Division by zero? at column ${t.pos + 1}`, t.pos);
      break;
    default: return n;
  }
  return { t: 'literal', value: v };
}

/** Parses a single `def ...;` (used for the builtin prelude). */
export function parseDef(src: string): FuncDef {
  const p = new Parser(tokenize(src), src) as unknown as { parseDefPublic(): FuncDef };
  return p.parseDefPublic();
}
