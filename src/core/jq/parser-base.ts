import { syntaxError } from './jq-errors.js';
import type { Token } from './lexer.js';

/** Token cursor shared by the expression and term parsers. */
export abstract class TokenStream {
  protected i = 0;
  constructor(
    protected toks: Token[],
    protected src: string,
  ) {}

  protected peek(o = 0): Token {
    return this.toks[Math.min(this.i + o, this.toks.length - 1)] as Token;
  }
  protected next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  protected is(value: string, o = 0): boolean {
    const t = this.peek(o);
    return (t.kind === 'op' || t.kind === 'kw') && t.value === value;
  }
  protected fail(t: Token = this.peek()): never {
    const what = t.kind === 'eof' ? '$end' : t.kind === 'str' ? 'string' : t.value;
    throw syntaxError(`syntax error, unexpected ${what} at column ${t.pos + 1}`, t.pos);
  }
  protected expect(value: string): Token {
    if (!this.is(value)) this.fail();
    return this.next();
  }
  expectEnd(): void {
    if (this.peek().kind !== 'eof') this.fail();
  }
}
