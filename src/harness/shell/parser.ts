/**
 * A parser for the bash command language, written here because every library measured costs a
 * Bash PreToolUse hook more than its 25 ms budget (Node 20, 2 cores, cold process):
 * sh-syntax (mvdan/sh as wasm) ~30 ms to import + ~45 ms for the first parse; mvdan-sh (GopherJS)
 * ~100-120 ms to require; web-tree-sitter + tree-sitter-bash ~43 ms to initialise + ~21 ms for
 * the first parse. Caching does not close the gap: the V8 code cache baton already uses for its
 * bundles (src/cli/bundle-loader.ts) skips compiling JavaScript, not running mvdan-sh's GopherJS
 * start-up, and Node 20 has no public way to cache a compiled wasm module across processes. This
 * file and its analysis are a bundle of their own (dist/lazy/shell-gate.js, 35 KB), loaded only
 * for a shell command: measured in-process, ~1.5 ms to load and ~2 ms for the first analysis
 * (0.5 ms after). Whole hook processes, CPU time, median of 25 (2026-12-01, load average ~22 on
 * 2 cores, so wall times were too noisy to compare): Bash allowed 26 -> 27 ms, Bash denied
 * 26 -> 28 ms, Write 25 -> 26 ms; within the 25 ms budget. test/shell/differential.unit.test.ts
 * checks the parser against mvdan-sh (a dev dependency only), as the jq engine is checked against jq.
 *
 * Covered: words with every quoting, all expansions, every redirection (fd and `{var}` forms,
 * here-documents and here-strings), pipelines, `;` `&&` `||` `&` lists, subshells, groups,
 * assignments (and arrays), functions, if/while/until/for/select/case, `[[ ]]`, `(( ))`.
 * Anything else is a ShellSyntaxError, which the policy treats as "cannot tell" (fail closed).
 */
import type { AndOr, Assignment, Command, Pipeline, Redirect, Script, Word } from './ast.js';
import { Lexer, ShellSyntaxError } from './words.js';

const RESERVED = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'in',
  'function',
  '{',
  '}',
  '[[',
  ']]',
  '!',
  'time',
  'coproc',
]);
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '>&', '>>', '>|', '<', '>'];
const MAX_LENGTH = 100_000;

type Stop = (p: Parser) => boolean;

export function parseShell(text: string): Script {
  if (text.length > MAX_LENGTH) throw new ShellSyntaxError(`command longer than ${MAX_LENGTH} characters`);
  return new Parser(text).script();
}

export { ShellSyntaxError };

class Parser extends Lexer {
  script(): Script {
    const script = this.list(() => false);
    this.blank();
    if (!this.eof()) this.fail(`unexpected ${JSON.stringify(this.peek())}`);
    this.finishHeredocs();
    return script;
  }

  protected nested(): Script {
    return this.list((p) => p.peek() === ')');
  }

  protected sub(text: string): Script {
    const parser = new Parser(text);
    parser.depth = this.depth;
    return parser.script();
  }

  protected fresh(text: string): Parser {
    const parser = new Parser(text);
    parser.depth = this.depth + 1;
    if (parser.depth > 64) this.fail('nesting too deep');
    return parser;
  }

  /** The next token if it is a reserved word (unquoted, followed by a word end). */
  reserved(): string | undefined {
    let end = this.pos;
    while (end < this.src.length && !this.isMeta(this.src.charAt(end))) end++;
    const token = this.src.slice(this.pos, end);
    return RESERVED.has(token) ? token : undefined;
  }

  private separators(): void {
    for (;;) {
      this.blank();
      if (this.peek() === '\n') this.newline();
      else return;
    }
  }

  private list(stop: Stop): Script {
    const items: AndOr[] = [];
    for (;;) {
      this.separators();
      if (this.eof() || stop(this) || this.peek() === ')' || this.at(';;') || this.at(';&')) break;
      const item = this.andOr();
      items.push(item);
      this.blank();
      const c = this.peek();
      if (c === ';' && this.peek(1) !== ';' && this.peek(1) !== '&') this.pos++;
      else if (c === '&' && this.peek(1) !== '&') {
        this.pos++;
        item.background = true;
      } else if (c === '\n') this.newline();
      else break;
    }
    return items;
  }

  private andOr(): AndOr {
    const item: AndOr = { pipelines: [this.pipeline()], ops: [], background: false };
    for (;;) {
      this.blank();
      const op = this.at('&&') ? '&&' : this.at('||') ? '||' : undefined;
      if (!op) return item;
      this.pos += 2;
      this.separators();
      item.ops.push(op);
      item.pipelines.push(this.pipeline());
    }
  }

  private pipeline(): Pipeline {
    this.blank();
    let negated = false;
    for (let word = this.reserved(); word === '!' || word === 'time'; word = this.reserved()) {
      this.pos += word.length;
      if (word === '!') negated = !negated;
      this.blank();
      if (word === 'time' && /^-p\b/.test(this.src.slice(this.pos, this.pos + 3))) this.pos += 2;
      this.blank();
    }
    const commands = [this.command()];
    for (;;) {
      this.blank();
      if (this.peek() !== '|' || this.peek(1) === '|') return { negated, commands };
      this.pos += this.peek(1) === '&' ? 2 : 1;
      this.separators();
      commands.push(this.command());
    }
  }

  private command(): Command {
    this.blank();
    this.enter();
    try {
      if (this.at('((')) return { type: 'arith', ...this.arithmetic(), redirects: this.redirects() };
      if (this.peek() === '(') {
        this.pos++;
        const body = this.list((p) => p.peek() === ')');
        this.expectChar(')');
        return { type: 'subshell', body, redirects: this.redirects() };
      }
      switch (this.reserved()) {
        case '{':
          return this.group();
        case 'if':
          return this.ifClause();
        case 'while':
        case 'until':
          return this.loop();
        case 'for':
        case 'select':
          return this.forClause();
        case 'case':
          return this.caseClause();
        case 'function':
          return this.functionDef();
        case '[[':
          return this.testClause();
        case 'coproc':
          return this.coproc();
        case undefined:
        case 'in':
        case ']]':
          return this.simple();
        default:
          return this.fail(`unexpected ${this.reserved()}`);
      }
    } finally {
      this.depth--;
    }
  }

  private keyword(word: string): void {
    this.separators();
    if (this.reserved() !== word) this.fail(`expected ${word}`);
    this.pos += word.length;
  }

  private expectChar(c: string): void {
    this.separators();
    if (this.peek() !== c) this.fail(`expected ${c}`);
    this.pos++;
  }

  private until(...words: string[]): Stop {
    return (p) => words.includes(p.reserved() ?? '');
  }

  private group(): Command {
    this.pos++;
    const body = this.list(this.until('}'));
    this.keyword('}');
    return { type: 'group', body, redirects: this.redirects() };
  }

  private ifClause(): Command {
    this.pos += 2;
    const clauses: { cond: Script; body: Script }[] = [];
    let otherwise: Script | undefined;
    for (;;) {
      const cond = this.list(this.until('then'));
      this.keyword('then');
      clauses.push({ cond, body: this.list(this.until('elif', 'else', 'fi')) });
      this.separators();
      const next = this.reserved();
      if (next === 'elif') {
        this.pos += 4;
        continue;
      }
      if (next === 'else') {
        this.pos += 4;
        otherwise = this.list(this.until('fi'));
      }
      this.keyword('fi');
      break;
    }
    return { type: 'if', clauses, ...(otherwise ? { otherwise } : {}), redirects: this.redirects() };
  }

  private loop(): Command {
    const until = this.reserved() === 'until';
    this.pos += 5;
    const cond = this.list(this.until('do'));
    this.keyword('do');
    const body = this.list(this.until('done'));
    this.keyword('done');
    return { type: 'loop', until, cond, body, redirects: this.redirects() };
  }

  private forClause(): Command {
    this.pos += this.reserved() === 'for' ? 3 : 6;
    this.blank();
    let name = '';
    let items: Word[] | undefined;
    if (this.at('((')) {
      this.arithmetic();
    } else {
      name = this.word()?.text ?? this.fail('expected a loop variable');
      this.separators();
      if (this.reserved() === 'in') {
        this.pos += 2;
        items = [];
        for (;;) {
          this.blank();
          const word = this.word();
          if (!word) break;
          items.push(word);
        }
      }
    }
    this.blank();
    if (this.peek() === ';') this.pos++;
    this.separators();
    let body: Script;
    if (this.reserved() === '{') {
      body = [{ pipelines: [{ negated: false, commands: [this.group()] }], ops: [], background: false }];
    } else {
      this.keyword('do');
      body = this.list(this.until('done'));
      this.keyword('done');
    }
    return { type: 'for', name, ...(items ? { items } : {}), body, redirects: this.redirects() };
  }

  private caseClause(): Command {
    this.pos += 4;
    this.blank();
    const word = this.word() ?? this.fail('expected a word after case');
    this.keyword('in');
    const items: { patterns: Word[]; body: Script }[] = [];
    for (;;) {
      this.separators();
      if (this.reserved() === 'esac') break;
      if (this.peek() === '(') this.pos++;
      const patterns: Word[] = [];
      for (;;) {
        this.blank();
        patterns.push(this.word() ?? this.fail('expected a case pattern'));
        this.blank();
        if (this.peek() === '|') this.pos++;
        else break;
      }
      this.expectChar(')');
      items.push({ patterns, body: this.list(this.until('esac')) });
      this.blank();
      if (this.at(';;&')) this.pos += 3;
      else if (this.at(';;') || this.at(';&')) this.pos += 2;
    }
    this.pos += 4;
    return { type: 'case', word, items, redirects: this.redirects() };
  }

  private functionDef(): Command {
    this.pos += 8;
    this.blank();
    const name = this.word()?.text ?? this.fail('expected a function name');
    this.blank();
    if (this.at('()')) this.pos += 2;
    else if (this.peek() === '(') {
      this.pos++;
      this.expectChar(')');
    }
    this.separators();
    return { type: 'function', name, body: this.command() };
  }

  /** `coproc [NAME] command`: the command runs (in the background); only that matters here. */
  private coproc(): Command {
    this.pos += 6;
    this.blank();
    const named = /^[A-Za-z_][A-Za-z0-9_]*[ \t]+[({]/.exec(this.src.slice(this.pos, this.pos + 256));
    if (named) this.pos += named[0].length - 1;
    return this.command();
  }

  private testClause(): Command {
    this.pos += 2;
    const words: Word[] = [];
    for (;;) {
      this.separators();
      if (this.reserved() === ']]') {
        this.pos += 2;
        break;
      }
      if (this.eof()) this.fail('expected ]]');
      const word = this.word();
      if (word) words.push(word);
      else this.pos += this.at('&&') || this.at('||') ? 2 : 1;
    }
    return { type: 'test', words, redirects: this.redirects() };
  }

  private arithmetic(): { text: string; inner: Script[] } {
    const text = this.balanced(this.pos).slice(2, -2);
    const inner = /[`$]/.test(text)
      ? this.fresh(text)
          .quotedLike()
          .flatMap((part) => (part.type === 'command' ? [part.script] : []))
      : [];
    return { text, inner };
  }

  private simple(): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.blank();
      const redirect = this.redirect();
      if (redirect) {
        redirects.push(redirect);
        continue;
      }
      const assign =
        words.length === 0
          ? /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]\n]*\])?(\+?)=/.exec(this.src.slice(this.pos, this.pos + 256))
          : null;
      if (assign) {
        this.pos += assign[0].length;
        const item: Assignment = { name: (assign[1] ?? '') + (assign[2] ?? ''), append: assign[3] === '+' };
        if (this.peek() === '(') {
          this.pos++;
          item.array = [];
          for (;;) {
            this.separators();
            if (this.peek() === ')') break;
            item.array.push(this.word() ?? this.fail('expected an array element'));
          }
          this.pos++;
        } else {
          const value = this.word();
          if (value) item.value = value;
        }
        assigns.push(item);
        continue;
      }
      const word = this.word();
      if (!word) break;
      words.push(word);
      if (words.length === 1 && assigns.length === 0 && redirects.length === 0) {
        this.blank();
        if (this.at('()') || (this.peek() === '(' && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 64)))) {
          this.balanced(this.pos);
          this.separators();
          return { type: 'function', name: word.text, body: this.command() };
        }
      }
    }
    if (words.length === 0 && assigns.length === 0 && redirects.length === 0)
      this.fail(`unexpected ${JSON.stringify(this.peek() || 'end of command')}`);
    return { type: 'simple', assigns, words, redirects };
  }

  /** Redirections after a compound command. */
  private redirects(): Redirect[] {
    const list: Redirect[] = [];
    for (;;) {
      this.blank();
      const redirect = this.redirect();
      if (!redirect) return list;
      list.push(redirect);
    }
  }

  private redirect(): Redirect | undefined {
    const fd =
      /^(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 64))?.[0] ?? '';
    const at = this.pos + fd.length;
    const op = REDIRECT_OPS.find((candidate) => this.src.startsWith(candidate, at));
    if (!op || ((op === '<' || op === '>') && this.src.charAt(at + 1) === '(')) return undefined;
    this.pos = at + op.length;
    this.blank();
    const target = this.word() ?? this.fail(`expected a word after ${op}`);
    const redirect: Redirect = { op, fd, target };
    if (op === '<<' || op === '<<-') {
      redirect.heredocQuoted = target.parts.some((part) => part.type !== 'lit');
      this.heredoc(redirect, delimiterText(target), op === '<<-');
    }
    return redirect;
  }
}

/** A here-document delimiter after quote removal (`'EOF'`, `"EOF"`, `E\OF` all read EOF). */
function delimiterText(word: Word): string {
  return word.parts
    .map((part) => {
      if (part.type === 'lit' || part.type === 'quoted') return part.value;
      if (part.type === 'dquote') return part.parts.map((p) => (p.type === 'quoted' ? p.value : '')).join('');
      return '';
    })
    .join('');
}
