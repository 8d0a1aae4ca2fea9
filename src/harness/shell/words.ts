/**
 * The word level of the shell grammar: quoting (`'...'`, `"..."`, `$'...'`, backslashes), the
 * expansions (`$x`, `${x...}`, `$(...)`, backquotes, `$((...))`, `<(...)`) and here-document
 * bodies. The command level (parser.ts) extends this class; an expansion that holds a script
 * calls back into it through `nested`.
 */
import type { Redirect, Script, Word, WordPart } from './ast.js';

export class ShellSyntaxError extends Error {}

/** Characters that end an unquoted word. */
const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const MAX_DEPTH = 64;

interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
}

export abstract class Lexer {
  pos = 0;
  protected depth = 0;
  private readonly pending: PendingHeredoc[] = [];

  constructor(protected readonly src: string) {}

  /** Parses a script up to (not past) `)`; used for `$(...)`, `<(...)`. */
  protected abstract nested(): Script;
  /** A whole script from a separate text (backquotes, `bash -c` strings are parsed by callers). */
  protected abstract sub(text: string): Script;

  protected peek(n = 0): string {
    return this.src.charAt(this.pos + n);
  }

  protected at(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  protected eof(): boolean {
    return this.pos >= this.src.length;
  }

  protected fail(what: string): never {
    throw new ShellSyntaxError(`${what} at offset ${this.pos}`);
  }

  protected enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail('nesting too deep');
  }

  /** Skips blanks, line continuations and comments; never a newline. */
  protected blank(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && this.peek(1) === '\n') this.pos += 2;
      else if (c === '#') while (!this.eof() && this.peek() !== '\n') this.pos++;
      else return;
    }
  }

  /** Consumes one newline and reads the here-document bodies that were waiting for it. */
  protected newline(): void {
    this.pos++;
    const waiting = this.pending.splice(0);
    for (const doc of waiting) this.heredocBody(doc);
  }

  protected isMeta(c: string): boolean {
    return c === '' || META.has(c);
  }

  /** One word, or undefined when the next character ends words. */
  protected word(): Word | undefined {
    const start = this.pos;
    const parts: WordPart[] = [];
    let lit = '';
    const flush = () => {
      if (lit) parts.push({ type: 'lit', value: lit });
      lit = '';
    };
    for (;;) {
      const c = this.peek();
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        flush();
        this.pos += 2;
        parts.push({ type: 'process', op: c, script: this.closeParen() });
        continue;
      }
      if (this.isMeta(c)) break;
      if (c === '\\') {
        const next = this.peek(1);
        this.pos += 2;
        if (next === '\n') continue;
        flush();
        if (next === '') lit = '\\';
        else parts.push({ type: 'quoted', value: next });
      } else if (c === "'") {
        flush();
        parts.push({ type: 'quoted', value: this.singleQuoted() });
      } else if (c === '"') {
        flush();
        this.pos++;
        parts.push({ type: 'dquote', parts: this.quotedParts('"') });
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.dollar() : this.backquote();
        if (typeof part === 'string') lit += part;
        else {
          flush();
          parts.push(part);
        }
      } else if ('@!+*?'.includes(c) && this.peek(1) === '(') {
        flush();
        parts.push({ type: 'extglob', value: this.balanced(this.pos + 1) });
      } else {
        lit += c;
        this.pos++;
      }
    }
    flush();
    if (this.pos === start) return undefined;
    return { parts, text: this.src.slice(start, this.pos) };
  }

  private singleQuoted(): string {
    const end = this.src.indexOf("'", this.pos + 1);
    if (end < 0) this.fail('unterminated single quote');
    const value = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    return value;
  }

  /** Parts of a double-quoted string (after the opening quote) or of an unquoted here-document (end ''). */
  protected quotedParts(end: '"' | ''): WordPart[] {
    const parts: WordPart[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push({ type: 'quoted', value: text });
      text = '';
    };
    for (;;) {
      if (this.eof()) {
        if (end === '"') this.fail('unterminated double quote');
        break;
      }
      const c = this.peek();
      if (c === end) {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const next = this.peek(1);
        if (next === '\n') this.pos += 2;
        else if (next === '$' || next === '`' || next === '\\' || (next === '"' && end === '"')) {
          text += next;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.dollar() : this.backquote();
        if (typeof part === 'string') text += part;
        else {
          flush();
          parts.push(part);
        }
      } else {
        text += c;
        this.pos++;
      }
    }
    flush();
    return parts;
  }

  /** An expansion starting with `$`, or the plain text `$` when nothing follows it. */
  private dollar(): WordPart | string {
    const next = this.peek(1);
    if (this.at('$((')) {
      const text = this.balanced(this.pos + 1);
      return { type: 'arith', text: text.slice(2, -2), inner: this.innerScripts(text.slice(2, -2)) };
    }
    if (next === '(') {
      this.pos += 2;
      return { type: 'command', script: this.closeParen() };
    }
    if (next === '{') return this.braceParam();
    if (next === "'") {
      const match = /^\$'((?:[^'\\]|\\[\s\S])*)'/.exec(this.src.slice(this.pos));
      if (!match) this.fail("unterminated $'");
      this.pos += match[0].length;
      return { type: 'quoted', value: ansiC(match[1] ?? '') };
    }
    if (next === '"') {
      this.pos += 2;
      return { type: 'dquote', parts: this.quotedParts('"') };
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.pos + 1, this.pos + 256))?.[0];
    if (!name) {
      this.pos++;
      return '$';
    }
    this.pos += 1 + name.length;
    return { type: 'param', name, op: '' };
  }

  private braceParam(): WordPart {
    const start = this.pos;
    this.pos += 2;
    let depth = 1;
    while (depth > 0) {
      if (this.eof()) this.fail('unterminated ${');
      const c = this.peek();
      if (c === '\\') this.pos += 2;
      else if (c === "'") this.singleQuoted();
      else if (c === '"') {
        this.pos++;
        this.quotedParts('"');
      } else if (c === '`') this.backquote();
      else if (c === '$' && (this.peek(1) === '(' || this.peek(1) === '{')) {
        if (this.peek(1) === '{') {
          depth++;
          this.pos += 2;
        } else this.dollar();
      } else {
        if (c === '}') depth--;
        this.pos++;
      }
    }
    const inner = this.src.slice(start + 2, this.pos - 1);
    const length = /^#([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?$/.exec(inner);
    if (length) return { type: 'param', name: length[1] + (length[2] ?? ''), op: '#' };
    if (inner.startsWith('!') && inner.length > 1) return { type: 'param', name: inner.slice(1), op: '!' };
    const head = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?/.exec(inner);
    if (!head) return { type: 'param', name: '', op: inner };
    const rest = inner.slice(head[0].length);
    const op = /^(?::[-=?+]|[-=?+]|##?|%%?|\/[/#%]?|\^\^?|,,?|:|@)/.exec(rest)?.[0] ?? rest;
    const arg = rest.slice(op.length);
    return { type: 'param', name: head[1] + (head[2] ?? ''), op, ...(arg ? { arg: this.argWord(arg) } : {}) };
  }

  /** The operand of `${x:-word}`: quotes and expansions, blanks and metacharacters literal. */
  private argWord(text: string): Word {
    const lexer = this.fresh(text);
    return { parts: lexer.quotedLike(), text };
  }

  protected abstract fresh(text: string): Lexer;

  /** Like a here-document body, but with quotes: the operand of `${x:-...}`. */
  quotedLike(): WordPart[] {
    const parts: WordPart[] = [];
    while (!this.eof()) {
      const c = this.peek();
      if (c === "'") parts.push({ type: 'quoted', value: this.singleQuoted() });
      else if (c === '"') {
        this.pos++;
        parts.push({ type: 'dquote', parts: this.quotedParts('"') });
      } else if (c === '\\') {
        parts.push({ type: 'quoted', value: this.peek(1) });
        this.pos += 2;
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.dollar() : this.backquote();
        parts.push(typeof part === 'string' ? { type: 'lit', value: part } : part);
      } else {
        parts.push({ type: 'lit', value: c });
        this.pos++;
      }
    }
    return parts;
  }

  private backquote(): WordPart {
    let text = '';
    this.pos++;
    for (;;) {
      if (this.eof()) this.fail('unterminated backquote');
      const c = this.peek();
      if (c === '`') break;
      if (c === '\\' && '`$\\'.includes(this.peek(1)) && this.peek(1) !== '') {
        text += this.peek(1);
        this.pos += 2;
      } else {
        text += c;
        this.pos++;
      }
    }
    this.pos++;
    this.enter();
    const script = this.sub(text);
    this.depth--;
    return { type: 'command', script };
  }

  private closeParen(): Script {
    this.enter();
    const script = this.nested();
    this.blank();
    if (this.peek() !== ')') this.fail('expected )');
    this.pos++;
    this.depth--;
    return script;
  }

  /** Text from `from` (an opening parenthesis) to its matching `)`, quotes respected; moves past it. */
  protected balanced(from: number): string {
    const start = this.pos;
    this.pos = from;
    let depth = 0;
    do {
      if (this.eof()) this.fail('unbalanced (');
      const c = this.peek();
      if (c === '\\') this.pos += 2;
      else if (c === "'") this.singleQuoted();
      else if (c === '"') {
        this.pos++;
        this.quotedParts('"');
      } else {
        if (c === '(') depth++;
        else if (c === ')') depth--;
        this.pos++;
      }
    } while (depth > 0);
    return this.src.slice(start, this.pos);
  }

  /** Command substitutions inside arithmetic text, parsed so the commands they run are seen. */
  private innerScripts(text: string): Script[] {
    if (!/[`$]/.test(text)) return [];
    const lexer = this.fresh(text);
    const parts = lexer.quotedLike();
    return parts.flatMap((part) => (part.type === 'command' ? [part.script] : []));
  }

  protected heredoc(redirect: Redirect, delimiter: string, stripTabs: boolean): void {
    this.pending.push({ redirect, delimiter, stripTabs });
  }

  /** Here-documents still waiting for a newline when the text ends: their bodies are the rest. */
  protected finishHeredocs(): void {
    const waiting = this.pending.splice(0);
    for (const doc of waiting) this.heredocBody(doc);
  }

  private heredocBody(doc: PendingHeredoc): void {
    const lines: string[] = [];
    while (!this.eof()) {
      let end = this.src.indexOf('\n', this.pos);
      if (end < 0) end = this.src.length;
      let line = this.src.slice(this.pos, end);
      this.pos = Math.min(end + 1, this.src.length);
      if (doc.stripTabs) line = line.replace(/^\t+/, '');
      if (line === doc.delimiter) break;
      lines.push(line);
    }
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    doc.redirect.heredoc = doc.redirect.heredocQuoted
      ? { parts: [{ type: 'quoted', value: text }], text }
      : { parts: this.fresh(text).quotedParts(''), text };
  }
}

/** Decodes the escapes of a `$'...'` string. */
function ansiC(text: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return text.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_m, esc: string) => {
      if (/^[xuU]/.test(esc)) return String.fromCodePoint(parseInt(esc.slice(1), 16));
      if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
      if (esc.startsWith('c')) return String.fromCharCode(esc.charCodeAt(1) & 31);
      return simple[esc] ?? `\\${esc}`;
    },
  );
}
