import type { Node, Pattern } from './ast.js';
import { unsupported } from './jq-errors.js';
import type { Token } from './lexer.js';
import { TokenStream } from './parser-base.js';

/** `?` that wraps a whole term in try (jq's `Exp '?'`), as opposed to an optional index. */
const postfixTry = new WeakSet<Node>();

/** jq `Term`s: primaries, postfix indexing, strings, object construction and patterns. */
export abstract class TermParser extends TokenStream {
  abstract parseExp(minBp: number): Node;
  protected abstract sub(toks: Token[]): TermParser;
  /** A jq `Term`: a primary followed by postfix indexing; with `as` bindings unless `noAs`. */
  protected parseTerm(noAs: boolean): Node {
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

  protected parseBracket(term: Node): Node {
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

  protected parsePrimary(): Node {
    const t = this.next();
    switch (t.kind) {
      case 'num':
        return { t: 'literal', value: t.num as number };
      case 'str':
        return this.parseString(t, 'text');
      case 'field':
        return { t: 'index', term: { t: 'identity' }, index: { t: 'literal', value: t.value }, opt: false };
      case 'format':
        if (this.peek().kind === 'str') return this.parseString(this.next(), t.value);
        return { t: 'format', fmt: t.value };
      case 'var':
        if (t.value === '__loc__')
          return { t: 'literal', value: { file: '<top-level>', line: lineOf(this.src, t.pos) } };
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
            if (this.peek().kind === 'str')
              return { t: 'index', term: { t: 'identity' }, index: this.parseString(this.next(), 'text'), opt: false };
            return { t: 'identity' };
          case '..':
            return { t: 'call', name: 'recurse', args: [], pos: t.pos };
          case '(': {
            const e = this.parseExp(0);
            this.expect(')');
            return e;
          }
          case '[': {
            if (this.is(']')) {
              this.next();
              return { t: 'array', e: null };
            }
            const e = this.parseExp(0);
            this.expect(']');
            return { t: 'array', e };
          }
          case '{':
            return this.parseObject();
        }
    }
    return this.fail(t);
  }

  protected parseString(t: Token, fmt: string): Node {
    const parts: (string | Node)[] = [];
    for (const part of t.parts ?? []) {
      if (typeof part === 'string') parts.push(part);
      else {
        const sub = this.sub(part);
        const e = sub.parseExp(0);
        sub.expectEnd();
        parts.push(e);
      }
    }
    if (parts.length === 1 && typeof parts[0] === 'string') return { t: 'literal', value: parts[0] };
    return { t: 'string', parts, fmt };
  }

  protected parseObject(): Node {
    const entries: { key: Node; value: Node }[] = [];
    if (this.is('}')) {
      this.next();
      return { t: 'object', entries };
    }
    for (;;) {
      const t = this.next();
      if (t.kind === 'var') {
        if (t.value === '__loc__') this.fail(t);
        entries.push({ key: { t: 'literal', value: t.value }, value: { t: 'var', name: t.value, pos: t.pos } });
      } else if (t.kind === 'ident' || t.kind === 'kw') {
        const key: Node = { t: 'literal', value: t.value };
        if (this.is(':')) {
          this.next();
          entries.push({ key, value: this.parseExpD() });
        } else if (t.kind === 'ident')
          entries.push({ key, value: { t: 'index', term: { t: 'identity' }, index: key, opt: false } });
        else this.fail();
      } else if (t.kind === 'str') {
        const key = this.parseString(t, 'text');
        if (this.is(':')) {
          this.next();
          entries.push({ key, value: this.parseExpD() });
        } else entries.push({ key, value: { t: 'index', term: { t: 'identity' }, index: key, opt: false } });
      } else if (t.kind === 'op' && t.value === '(') {
        const key = this.parseExp(0);
        this.expect(')');
        this.expect(':');
        entries.push({ key, value: this.parseExpD() });
      } else if (t.kind === 'format') {
        throw unsupported('format string as object key', t.pos);
      } else this.fail(t);
      if (this.is(',')) {
        this.next();
        continue;
      }
      this.expect('}');
      return { t: 'object', entries };
    }
  }

  /** Object values are jq's restricted `ExpD`: terms, negation and pipes only. */
  protected parseExpD(): Node {
    let left: Node;
    if (this.is('-')) {
      this.next();
      left = { t: 'neg', e: this.parseExpD() };
    } else {
      left = this.parseTerm(true);
      if (postfixTry.has(left)) throw unsupported('try-`?` in an object value', this.peek().pos);
    }
    if (this.is('|')) {
      this.next();
      return { t: 'pipe', left, right: this.parseExpD() };
    }
    return left;
  }

  protected parsePattern(): Pattern {
    const t = this.next();
    if (t.kind === 'var') {
      if (t.value === '__loc__') this.fail(t);
      return { kind: 'pvar', name: t.value };
    }
    if (t.kind === 'op' && t.value === '[') {
      const elems: Pattern[] = [this.parsePattern()];
      while (this.is(',')) {
        this.next();
        elems.push(this.parsePattern());
      }
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
          if (this.is(':')) {
            this.next();
            entry.sub = this.parsePattern();
          }
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
        if (this.is(',')) {
          this.next();
          continue;
        }
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
