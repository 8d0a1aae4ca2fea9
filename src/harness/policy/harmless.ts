/**
 * The proof a shell command is harmless, for a protected phase with no OS sandbox to hold the
 * protected files (docs/gates.md, "Without a sandbox: fail closed"). It is an allow-list: every
 * simple command at every nesting level must be a program on the list below, used in a way its
 * manual says reads only; every expansion must be one that runs no code and evaluates nothing
 * indirectly; every redirection must go to /dev/null, /dev/stdout, /dev/stderr or another fd.
 * Anything else, including anything this file does not positively recognise, is not harmless,
 * and the answer names the first such construct. The deny-list reading (../shell/analyze.ts)
 * still runs first for its clearer messages; this one stands alone.
 */
import { basename, resolve } from 'node:path';
import type { Command, Redirect, Script, Word, WordPart } from '../shell/ast.js';
import { expandWord, type Env } from '../shell/expand.js';
import { parseShell, ShellSyntaxError } from '../shell/parser.js';
import { gitConfigRisk } from './git-config.js';

/** undefined when `command` provably writes nothing (outside /dev/null and the like), else why not. */
export function harmlessCommand(command: string, cwd: string, home: string): string | undefined {
  try {
    const prover = new Prover({ cwd: [cwd], vars: new Map(), home, links: new Map(), dirs: [] });
    prover.text(command, new Set());
    return prover.git ? gitFolders(prover, cwd, home) : undefined;
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    if (error instanceof ShellSyntaxError) return `baton cannot parse the command (${error.message})`;
    // A bound or a bug: whatever stopped the proof, nothing was proved.
    return `baton could not finish reading the command (${error instanceof Error ? error.message : String(error)})`;
  }
}

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

/** `bash -c` inside `bash -c` ...: as deep as the deny-list reading goes (analyze.ts). */
const MAX_NESTING = 16;

/**
 * One argument as the program will see it. `fixed`: its text is known. `single`: it is one word
 * (quoted expansions, no glob, no word splitting), whose first `prefix` characters are known.
 */
interface Arg {
  text: string;
  fixed: boolean;
  single: boolean;
  prefix: string;
  source: string;
}

/** Functions defined earlier in the same scope (their bodies were proved when defined). */
type Scope = Set<string>;

class Prover {
  private nesting = 0;
  /** A git command was proved: its configuration is read at the end (git-config.ts). */
  git = false;
  /** Where each `cd`/`pushd` may go, in order; undefined for one baton cannot follow (`cd -`, `popd`, `cd "$d"`). */
  readonly cds: (string | undefined)[] = [];

  constructor(private readonly env: Env) {}

  text(source: string, scope: Scope): void {
    if (this.nesting >= MAX_NESTING) refuse(`the command nests shells more than ${MAX_NESTING} levels deep`);
    this.nesting++;
    try {
      this.script(parseShell(source), scope);
    } finally {
      this.nesting--;
    }
  }

  private script(script: Script, parent: Scope): void {
    const scope = new Set(parent);
    for (const item of script) {
      for (const pipeline of item.pipelines)
        for (const command of pipeline.commands)
          this.command(command, pipeline.commands.length > 1 ? new Set(scope) : scope);
      // A function is callable later only when its definition surely ran: alone in its list item.
      const only = item.pipelines.length === 1 ? item.pipelines[0]?.commands : undefined;
      const def = only?.length === 1 && !item.background ? only[0] : undefined;
      if (def?.type === 'function') scope.add(def.name);
    }
  }

  private command(command: Command, scope: Scope): void {
    switch (command.type) {
      case 'simple':
        return this.simple(command, scope);
      case 'subshell':
      case 'group':
        this.redirects(command.redirects, scope);
        return this.script(command.body, scope);
      case 'if':
        this.redirects(command.redirects, scope);
        for (const clause of command.clauses) {
          this.script(clause.cond, scope);
          this.script(clause.body, scope);
        }
        if (command.otherwise) this.script(command.otherwise, scope);
        return;
      case 'loop':
        this.redirects(command.redirects, scope);
        this.script(command.cond, scope);
        return this.script(command.body, scope);
      case 'for':
        this.redirects(command.redirects, scope);
        if (command.name === '') refuse('`for ((...))` evaluates arithmetic, which can run code');
        variableName(command.name, `for ${command.name}`);
        for (const word of command.items ?? []) this.word(word, scope);
        return this.script(command.body, scope);
      case 'case':
        this.redirects(command.redirects, scope);
        this.word(command.word, scope);
        for (const item of command.items) {
          for (const pattern of item.patterns) this.word(pattern, scope);
          this.script(item.body, scope);
        }
        return;
      case 'function':
        // The proof reads these names as the programs they are (`:(){ :|:& };:` calls itself).
        if (Object.hasOwn(PROGRAMS, command.name) || SHELLS.has(command.name) || SPECIAL.has(command.name))
          refuse(`\`${shorten(command.name)}() {...}\` redefines a command baton reads as the program it is`);
        return this.command(command.body, scope);
      case 'test':
        this.redirects(command.redirects, scope);
        return this.doubleBracket(command.words, scope);
      case 'arith':
        return refuse(`\`((${shorten(command.text)}))\` evaluates arithmetic, which can run code`);
    }
  }

  private simple(command: Extract<Command, { type: 'simple' }>, scope: Scope): void {
    for (const assign of command.assigns) {
      variableName(assign.name, `${assign.name}=`);
      if (assign.value) this.word(assign.value, scope);
      for (const element of assign.array ?? []) {
        if (element.text.startsWith('['))
          refuse(`\`${shorten(element.text)}\` evaluates an array subscript, which can run code`);
        this.word(element, scope);
      }
    }
    this.redirects(command.redirects, scope);
    const argv: Arg[] = [];
    for (const word of command.words) {
      this.word(word, scope);
      argv.push(...this.args(word));
    }
    const head = argv[0];
    if (!head) return;
    if (!head.fixed) refuse(`\`${shorten(head.source)}\`: a command name from an expansion, which baton cannot read`);
    this.program(head.text, argv.slice(1), scope);
  }

  private program(given: string, args: Arg[], scope: Scope): void {
    let name = given;
    if (given.includes('/')) {
      if (!/^\/(usr\/)?bin\/[^/]+$/.test(given)) refuse(`\`${shorten(given)}\` runs a file baton cannot see into`);
      name = basename(given);
    } else if (scope.has(name)) return;
    if (name === 'command') return this.commandBuiltin(args);
    if (SHELLS.has(name)) return this.shell(name, args);
    if (name === 'xargs') return xargs(args);
    if (name === 'git') this.git = true;
    if (name === 'cd' || name === 'pushd' || name === 'popd') this.cds.push(cdTarget(name, args, this.env.home));
    const check = Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
    if (!check) refuse(unknownProgram(name));
    const reason = check(args, name);
    if (reason) refuse(reason);
  }

  /** `command -v NAME` looks up; `command [-p] NAME ARGS` runs NAME, which must be harmless itself. */
  private commandBuiltin(args: Arg[]): void {
    let i = 0;
    for (; i < args.length; i++) {
      const arg = args[i] as Arg;
      if (!arg.fixed) refuse(`\`command ${shorten(arg.source)}\`: an argument baton cannot read`);
      if (arg.text === '--') {
        i++;
        break;
      }
      if (!/^-[pvV]+$/.test(arg.text)) break;
      if (/[vV]/.test(arg.text)) return;
    }
    const target = args[i];
    if (!target) return;
    if (!target.fixed) refuse(`\`command ${shorten(target.source)}\`: a command name from an expansion`);
    this.program(target.text, args.slice(i + 1), new Set());
  }

  /**
   * `bash -c 'literal text'`: the text is read and proved like the command itself, in a scope of
   * its own (the new shell has none of this one's functions). Only bash and sh, whose grammar is
   * the one baton parses: zsh, for one, runs code from glob qualifiers.
   */
  private shell(name: string, args: Arg[]): void {
    const [flag, text] = args;
    if ((name === 'bash' || name === 'sh') && flag?.fixed && flag.text === '-c' && text?.fixed)
      return this.text(text.text, new Set());
    if (!flag || (flag.fixed && !flag.text.startsWith('-')))
      refuse(`\`${name}\` reads commands from a file or its input, which baton cannot see`);
    refuse(`\`${name} ${shorten(flag.source)}\` runs a shell baton can read only as \`${name} -c 'literal text'\``);
  }

  private redirects(redirects: Redirect[], scope: Scope): void {
    for (const redirect of redirects) {
      if (redirect.fd.startsWith('{'))
        refuse(`\`${redirect.fd}${redirect.op}\` assigns a variable through a redirection, which baton does not allow`);
      this.word(redirect.target, scope);
      if (redirect.heredoc && !redirect.heredocQuoted) this.parts(redirect.heredoc.parts, scope, true);
      const target = this.args(redirect.target);
      const text = target.length === 1 && target[0]?.fixed ? target[0].text : undefined;
      const shown = `${redirect.fd}${redirect.op}${shorten(redirect.target.text)}`;
      if (['<', '<<', '<<-', '<<<'].includes(redirect.op)) continue;
      if ((redirect.op === '>&' || redirect.op === '<&') && text !== undefined && /^(\d+-?|-)$/.test(text)) continue;
      if (redirect.op === '<&') refuse(`\`${shown}\` is a redirection baton cannot read`);
      if (text !== undefined && DEVICES.has(text)) continue;
      refuse(`\`${shown}\` writes to a file (only /dev/null, /dev/stdout, /dev/stderr and fd copies are harmless)`);
    }
  }

  /** The scripts and expansions inside a word: each must run and evaluate nothing unproved. */
  private word(word: Word, scope: Scope): void {
    this.parts(word.parts, scope, false);
  }

  private parts(parts: WordPart[], scope: Scope, quoted: boolean): void {
    parts.forEach((part, i) => {
      const next = parts[i + 1];
      // zsh reads `$x[...]` as a subscript, evaluated as arithmetic; bash as `$x` and a glob.
      if (part.type === 'param' && part.op === '' && next?.type === 'lit' && next.value.startsWith('['))
        refuse(`\`$${part.name}[\`: a subscript in zsh, evaluated as arithmetic`);
    });
    for (const part of parts) {
      switch (part.type) {
        case 'lit':
        case 'quoted':
          // `$[...]` is bash's old arithmetic expansion; the parser keeps it as text.
          if ((part.type === 'lit' || quoted) && part.value.includes('$['))
            refuse('`$[...]` evaluates arithmetic, which can run code');
          break;
        case 'extglob':
          // Bash without `shopt -s extglob` rejects `*(...)`; zsh reads it as glob qualifiers,
          // and `*(e:'cmd':)` or `*(+func)` run code.
          return refuse(
            `\`${shorten(part.value)}\`: an extended glob, which zsh reads as glob qualifiers that can run code`,
          );
        case 'dquote':
          this.parts(part.parts, scope, true);
          break;
        case 'param':
          this.param(part, scope);
          break;
        case 'command':
        case 'process':
          this.script(part.script, new Set(scope));
          break;
        case 'arith':
          arithmetic(part.text.replace(/^\(/, ''), part.inner.length > 0); // the parser keeps one `(` of `$((`
          break;
      }
    }
  }

  private param(part: Extract<WordPart, { type: 'param' }>, scope: Scope): void {
    // `${!x}` and `${#x}` (a length: `#` with no operand) put the operator first.
    const first = part.op === '!' || (part.op === '#' && !part.arg);
    const shown = `\${${first ? part.op : ''}${part.name}${first ? '' : part.op}${part.arg?.text ?? ''}}`;
    if (part.op === '!') refuse(`\`${shorten(shown)}\` expands a variable named by another, which baton cannot follow`);
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[(.*)\])?$/s.exec(part.name);
    if (!name) refuse(`\`${shorten(shown)}\` is an expansion baton cannot read`);
    if (name[2] !== undefined && !/^(@|\*|\d+)$/.test(name[3] ?? ''))
      refuse(`\`${shorten(shown)}\` evaluates an array subscript, which can run code`);
    if (part.op === ':' && !/^\s*-?\d+\s*(:\s*-?\d+\s*)?$/.test(part.arg?.text ?? ''))
      refuse(`\`${shorten(shown)}\` evaluates its offset as arithmetic, which can run code`);
    if (!PARAM_OPS.has(part.op))
      refuse(`\`${shorten(shown)}\` transforms a value in a way baton does not prove harmless`);
    if (part.arg) this.parts(part.arg.parts, scope, true);
  }

  /** `[[ ... ]]`: its arithmetic comparisons evaluate their operands (`a[$(id)]` runs `id`), `-v` a subscript. */
  private doubleBracket(words: Word[], scope: Scope): void {
    for (const word of words) this.word(word, scope);
    const texts = words.map((word) => {
      const args = this.args(word);
      return args.length === 1 && args[0]?.fixed ? args[0].text : undefined;
    });
    texts.forEach((text, i) => {
      if (text === '-v' || text === '-R')
        refuse(`\`[[ ${text} ... ]]\` evaluates an array subscript, which can run code`);
      if (text !== undefined && ARITH_TESTS.has(text)) {
        const integer = (t: string | undefined) => t !== undefined && /^[+-]?\d+$/.test(t);
        if (!integer(texts[i - 1]) || !integer(texts[i + 1]))
          refuse(`\`[[ ... ${text} ... ]]\` evaluates its operands as arithmetic, which can run code`);
      }
    });
  }

  /** The arguments a word becomes, as far as a reading can tell (see Arg). */
  private args(word: Word): Arg[] {
    const source = word.text;
    if (splits(word.parts)) return [{ text: source, fixed: false, single: false, prefix: '', source }];
    if (word.parts.length === 1 && word.parts[0]?.type === 'process')
      return [{ text: '/dev/fd/*', fixed: false, single: true, prefix: '/dev/fd/', source }];
    const extglob = word.parts.some((p) => p.type === 'extglob');
    return expandWord(word, this.env).map((field) => {
      let prefix = '';
      let cut = false;
      let glob = extglob;
      field.pieces.forEach((piece, i) => {
        if (cut) return;
        // `[` globs only with a `]` after it: a lone `[` (the test command) is text.
        const wild =
          !('unknown' in piece) &&
          !piece.q &&
          ('*?'.includes(piece.c) ||
            (piece.c === '[' && field.pieces.slice(i + 1).some((p) => 'c' in p && !p.q && p.c === ']')));
        if (wild) glob = true;
        if ('unknown' in piece || wild) cut = true;
        else prefix += piece.c;
      });
      if (!cut && !glob) return { text: field.text, fixed: true, single: true, prefix, source };
      return { text: field.text, fixed: false, single: !glob, prefix, source };
    });
  }
}

/** The folder a `cd` goes to, when its words say (options skipped); `cd` alone goes home. */
function cdTarget(name: string, args: Arg[], home: string): string | undefined {
  if (name === 'popd') return undefined;
  const operands = args.filter((a) => !(a.fixed && /^-[LPe@]+$/.test(a.text)));
  if (operands.length === 0) return name === 'cd' ? home : undefined;
  const [target] = operands;
  return target?.fixed && target.text !== '-' && !/^[+-]\d+$/.test(target.text) ? target.text : undefined;
}

/** Git reads the configuration of the repository of every folder the command may run it in. */
function gitFolders(prover: Prover, cwd: string, home: string): string | undefined {
  let dirs = [cwd];
  for (const target of prover.cds) {
    if (target === undefined) return '`git` after a `cd` baton cannot follow: its repository configuration is unknown';
    dirs = [...new Set([...dirs, ...dirs.map((dir) => resolve(dir, target))])];
    if (dirs.length > 32) return '`git` after more `cd`s than baton follows';
  }
  return gitConfigRisk(dirs, home);
}

/** Parts that may become several words, or words of any text: unquoted expansions, `"$@"`, `"${a[@]}"`. */
function splits(parts: WordPart[], quoted = false): boolean {
  return parts.some((part) => {
    if (part.type === 'dquote') return splits(part.parts, true);
    if (part.type === 'param' && /^[@*]$|\[[@*]\]$/.test(part.name)) return true;
    return !quoted && (part.type === 'param' || part.type === 'command' || part.type === 'arith');
  });
}

/**
 * Names bash or programs act on are upper case by convention (PATH, LD_PRELOAD, BASH_ENV, ENV,
 * PS4, PROMPT_COMMAND, GIT_*): only lower-case names may be set, and never an array element
 * (its subscript is evaluated).
 */
function variableName(name: string, shown: string): void {
  if (name.includes('[')) refuse(`\`${shorten(shown)}\` evaluates an array subscript, which can run code`);
  // IFS changes only how expansions split, and every unquoted expansion is read as any words already.
  if (!/^[a-z_][a-z0-9_]*$/.test(name) && name !== 'IFS')
    refuse(
      `\`${shorten(shown)}\` sets a variable bash or a program may act on (only lower-case names are harmless to set)`,
    );
}

/** `$(( ))` with only numbers: a name is evaluated as arithmetic in turn, so `x='a[$(id)]'` runs `id`. */
function arithmetic(text: string, substitutes: boolean): void {
  const shown = `$((${shorten(text)}))`;
  if (substitutes) refuse(`\`${shown}\` runs a command inside arithmetic`);
  if (!/^[\s0-9+\-*/%()<>=!&|^~?:,]*$/.test(text))
    refuse(`\`${shown}\` evaluates names or subscripts as arithmetic, which can run code`);
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

const DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** Expansions that only read a value: plain, defaults, alternatives, lengths, pattern removal and substitution. */
const PARAM_OPS = new Set(['', ':-', '-', ':+', '+', ':?', '?', '#', '##', '%', '%%', '/', '//', '/#', '/%', ':']);
const ARITH_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
/** Names program() handles itself. */
const SPECIAL = new Set(['command', 'xargs']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);
const INTERPRETERS =
  /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby|irb|php|lua[0-9.]*|luajit|tclsh|wish|R|Rscript|julia|java|jshell|osascript|awk|gawk|mawk|nawk|vim?|nvim|emacs|ed|ex|make|npx|npm|pnpm|yarn|uv|uvx|pip[0-9.]*|pytest|go|cargo|rustc|gcc|cc|clang|tsx|ts-node)$/;
const RUNS_TEXT = new Set(['eval', 'source', '.']);
const REDEFINES = new Set(['trap', 'alias', 'enable', 'hash', 'builtin', 'exec']);
const SETS_VARIABLES = new Set([
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'let',
  'shopt',
  'mapfile',
  'readarray',
]);

function unknownProgram(name: string): string {
  if (RUNS_TEXT.has(name)) return `\`${name}\` runs text as shell code`;
  if (REDEFINES.has(name)) return `\`${name}\` changes what later commands run, which baton cannot prove harmless`;
  if (SETS_VARIABLES.has(name))
    return `\`${name}\` sets variables or shell options, which can evaluate code (namerefs, integer variables, subscripts)`;
  if (INTERPRETERS.test(name)) return `\`${name}\` runs a program baton cannot see into`;
  return `\`${name}\` is not on baton's list of read-only programs`;
}

// ---------------------------------------------------------------------------------------------
// Programs: each checks its arguments and says why they are not harmless.

type Check = (args: Arg[], name: string) => string | undefined;

interface Options {
  /** Short options that take a value (glued, or the next word). */
  valued?: string;
  /** Short options that write or run something. */
  deny?: string;
  /** Long options that write or run something; any abbreviation of them too (getopt accepts those). */
  denyLong?: string[];
  /** Long options whose value may be the next word. */
  valuedLong?: string[];
  /** Option reading ends at the first operand (getopt with `+`). */
  stopAtOperand?: boolean;
  /** The most operands the program reads without writing (uniq IN [OUT]). */
  maxOperands?: number;
}

/** Reads options as getopt does; returns why not harmless, or the operands. */
function scan(args: Arg[], name: string, options: Options): { operands: Arg[]; reason?: string } {
  const operands: Arg[] = [];
  const valued = options.valued ?? '';
  const deny = options.deny ?? '';
  let value = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const shown = `\`${name} ${shorten(arg.source)}\``;
    const wasValue = value;
    value = false;
    if (!arg.single) {
      // A glob under a literal folder (`src/*.py`) becomes words that all start with that folder.
      if (arg.prefix === '' || arg.prefix.startsWith('-') || options.maxOperands !== undefined)
        return { operands, reason: `${shown}: an expansion that may become several words or an option` };
      operands.push(arg);
      continue;
    }
    const text = arg.fixed ? arg.text : arg.prefix;
    const dashed = text.startsWith('-') && text !== '-';
    // An option's value, whatever it looks like (`sort -t -- -o x`: `--` is the separator
    // character, and `-o` still an option). One that looks like an option is checked as one too.
    if (wasValue && (!arg.fixed || !dashed || text === '--')) continue;
    if (!arg.fixed && (arg.prefix === '' || arg.prefix.startsWith('-')))
      return { operands, reason: `${shown}: an expansion that may be an option baton cannot read` };
    if (!wasValue && !ended && text === '--') {
      ended = true;
      continue;
    }
    // After `--` every word is an operand; one that looks like an option is checked as one too,
    // in case a value taken earlier (`git log --grep -- --output=x`) made `--` not the end.
    if (!wasValue && (ended || !dashed)) {
      operands.push(arg);
      if (options.stopAtOperand) {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (!dashed) continue;
    }
    if (text.startsWith('--')) {
      const long = text.slice(2).split('=')[0] as string;
      const denied = options.denyLong?.find((d) => d.startsWith(long));
      if (denied) return { operands, reason: `${shown}: \`--${denied}\` can write or run a program` };
      if (!ended && !text.includes('=') && options.valuedLong?.includes(long)) value = true;
      continue;
    }
    for (let c = 1; c < text.length; c++) {
      const letter = text.charAt(c);
      if (deny.includes(letter)) return { operands, reason: `${shown}: \`-${letter}\` can write or run a program` };
      if (valued.includes(letter)) {
        value = !ended && c === text.length - 1;
        break;
      }
    }
  }
  if (options.maxOperands !== undefined && operands.length > options.maxOperands)
    return { operands, reason: `\`${name}\` with ${operands.length} operands writes the last one` };
  return { operands };
}

function options(spec: Options): Check {
  return (args, name) => scan(args, name, spec).reason;
}

/** Programs none of whose options write a file or run another program (checked against their manuals). */
const anyArgs: Check = () => undefined;

function printf(args: Arg[]): string | undefined {
  const first = args[0];
  if (!first) return undefined;
  if (first.fixed && first.text === '-v') return '`printf -v` assigns a variable, whose subscript bash evaluates';
  if (first.fixed && (!first.text.startsWith('-') || first.text === '--')) return undefined;
  if (!first.fixed && first.single && first.prefix !== '' && !first.prefix.startsWith('-')) return undefined;
  return `\`printf ${shorten(first.source)}\`: a first argument that may be an option (\`-v\` assigns a variable)`;
}

const UNARY = new Set(['-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x']);
for (const op of ['-G', '-L', '-N', '-O', '-S', '-z', '-n', '-o']) UNARY.add(op);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

/**
 * `test`/`[`: `-v NAME[SUB]` evaluates the subscript. With arguments baton cannot read, only the
 * shapes whose operators are fixed by position (bash decides by the number of arguments).
 */
function test(args: Arg[], name: string): string | undefined {
  let list = args;
  if (name === '[') {
    const last = list[list.length - 1];
    if (!last?.fixed || last.text !== ']') return '`[` without a closing `]`';
    list = list.slice(0, -1);
  }
  const is = (arg: Arg | undefined, set: Set<string> | string) =>
    !!arg?.fixed && (typeof set === 'string' ? arg.text === set : set.has(arg.text));
  if (list.some((a) => is(a, '-v') || is(a, '-R')))
    return `\`${name} -v\` evaluates an array subscript, which can run code`;
  // zsh's test evaluates the operands of -eq and the like as arithmetic (bash's reads integers).
  const integer = (arg: Arg | undefined) => !!arg?.fixed && /^[+-]?\d+$/.test(arg.text);
  const arith = list.findIndex((a, i) => is(a, ARITH_TESTS) && (!integer(list[i - 1]) || !integer(list[i + 1])));
  if (arith >= 0)
    return `\`${name} ... ${list[arith]?.text} ...\`: operands that are not numbers, which zsh evaluates as arithmetic`;
  if (list.every((a) => a.fixed)) return undefined;
  const why = `\`${name} ${shorten(list.map((a) => a.source).join(' '))}\`: an argument baton cannot read where \`-v\` would evaluate code`;
  if (list.some((a) => !a.single)) return why;
  const shape = (rest: Arg[]): boolean => {
    if (rest.length === 1) return true;
    if (rest.length === 2) return is(rest[0], UNARY) || is(rest[0], '!');
    if (rest.length === 3) return is(rest[1], BINARY) || (is(rest[0], '!') && shape(rest.slice(1)));
    if (rest.length === 4) return is(rest[0], '!') && shape(rest.slice(1));
    return false;
  };
  return shape(list) ? undefined : why;
}

/** `read` sets the variables it names: plain lower-case names only (`read 'a[$(id)]'` runs `id`). */
function read(args: Arg[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (!arg.fixed) return `\`read ${shorten(arg.source)}\`: an argument baton cannot read`;
    const option = /^-([ers]*)([adinNptu]?)(.*)$/.exec(arg.text);
    if (arg.text !== '-' && arg.text !== '--' && option) {
      const valued = option[2];
      if (!valued && option[3]) return `\`read ${shorten(arg.text)}\` is an option baton does not prove harmless`;
      const value = valued && option[3] === '' ? args[++i] : { ...arg, text: option[3] ?? '' };
      if (valued === 'a') {
        if (!value?.fixed) return '`read -a` with an array name baton cannot read';
        variableName(value.text, `read -a ${value.text}`);
      } else if (valued && !value?.single) return `\`read -${valued}\` with a value baton cannot read`;
      continue;
    }
    if (arg.text === '--') continue;
    variableName(arg.text, `read ${arg.text}`);
  }
  return undefined;
}

/**
 * `set` with the options agents use to make a script strict (`set -euo pipefail`), and `set --`
 * (positional parameters, which are read as any words already). Not `-x` (it expands PS4,
 * which may come from the environment), `+B` (changes how words expand) or `-o posix` (how
 * the rest parses).
 */
function set(args: Arg[]): string | undefined {
  const names = /^(errexit|nounset|pipefail|noglob|noclobber|verbose|noexec)$/;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (!arg.fixed) return `\`set ${shorten(arg.source)}\`: an argument baton cannot read`;
    if (arg.text === '--') return undefined;
    const flags = /^[-+]([eufvCn]*)(o?)$/.exec(arg.text);
    if (!flags || arg.text.length < 2) return `\`set ${shorten(arg.text)}\` is an option baton does not prove harmless`;
    if (flags[2]) {
      const name = args[++i];
      if (!name?.fixed || !names.test(name.text))
        return `\`set -o ${shorten(name?.source ?? '')}\` is an option baton does not prove harmless`;
    }
  }
  return undefined;
}

/**
 * baton's own commands write through baton's rules. Not the ones that run other programs or
 * serve (hook, mcp, ui, demo), import arbitrary files (store) or write host settings (install),
 * as the sandbox leaves them out of the baton calls it runs unwrapped.
 */
const BATON_COMMANDS = new Set(
  'init get update set append consume clear history show revert doctor goal lint run phase gate task statusline help'.split(
    ' ',
  ),
);
for (const flag of ['--version', '-V', '--help', '-h']) BATON_COMMANDS.add(flag);

function baton(args: Arg[]): string | undefined {
  const sub = args[0];
  if (!sub) return undefined;
  if (!sub.fixed) return `\`baton ${shorten(sub.source)}\`: a command baton cannot read`;
  if (!BATON_COMMANDS.has(sub.text))
    return `\`baton ${shorten(sub.text)}\` runs programs, serves, imports files or writes host settings`;
  return undefined;
}

/** `env` only prints the environment; with a command it would run one. */
function env(args: Arg[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (!arg.fixed) return `\`env ${shorten(arg.source)}\`: an argument baton cannot read`;
    if (/^-[i0]+$/.test(arg.text) || arg.text === '-' || ['--ignore-environment', '--null'].includes(arg.text))
      continue;
    if (arg.text === '-u' || arg.text === '--unset') {
      i++;
      continue;
    }
    if (/^(-u.|--unset=)/.test(arg.text)) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg.text)) continue;
    return `\`env ${shorten(arg.source)}\` runs a program or uses an option baton does not prove harmless`;
  }
  return undefined;
}

/** The programs `xargs` may run: their arguments (whatever comes on standard input) cannot write. */
const XARGS_TARGETS = new Set(['cat', 'head', 'tail', 'wc', 'ls', 'grep', 'egrep', 'fgrep', 'stat', 'echo']);
for (const name of ['basename', 'dirname', 'realpath', 'readlink', 'md5sum', 'sha1sum', 'sha256sum', 'du', 'true'])
  XARGS_TARGETS.add(name);

function xargs(args: Arg[]): void {
  const { operands, reason } = scan(args, 'xargs', {
    valued: 'adELnPs',
    deny: 'Iiop',
    denyLong: ['replace', 'process-slot-var', 'open-tty', 'interactive'],
    valuedLong: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'max-lines'],
    stopAtOperand: true,
  });
  if (reason) refuse(reason);
  const target = operands[0];
  if (!target) return;
  if (!target.fixed) refuse(`\`xargs ${shorten(target.source)}\`: a command name from an expansion`);
  if (!XARGS_TARGETS.has(target.text))
    refuse(
      `\`xargs ${target.text}\`: xargs adds arguments baton cannot see, so it may run only ${[...XARGS_TARGETS].join(', ')}`,
    );
}

const FIND_PRIMARIES = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin -atime ' +
    '-amin -ctime -cmin -newer -anewer -cnewer -perm -user -group -uid -gid -links -inum -samefile -maxdepth ' +
    '-mindepth -lname -ilname -regextype -fstype -used -context -printf -files0-from -empty -nouser -nogroup ' +
    '-readable -writable -executable -depth -prune -print -print0 -ls -quit -true -false -not -a -o -and -or ' +
    '-follow -mount -xdev -noleaf -daystart -ignore_readdir_race -noignore_readdir_race -warn -nowarn -help ' +
    '-version -H -L -P'
  ).split(' '),
);
const FIND_VALUED = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin -atime ' +
    '-amin -ctime -cmin -newer -anewer -cnewer -perm -user -group -uid -gid -links -inum -samefile -maxdepth ' +
    '-mindepth -lname -ilname -regextype -fstype -used -context -printf -files0-from -D -O'
  ).split(' '),
);

/** find: every primary on the list (no -delete, -exec, -execdir, -ok, -okdir, -fprint*, -fls). */
function find(args: Arg[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const shown = `\`find ... ${shorten(arg.source)}\``;
    if (!arg.single) return `${shown}: an expansion that may become several words or a primary such as -delete`;
    const valued = i > 0 && args[i - 1]?.fixed && FIND_VALUED.has(args[i - 1]?.text ?? '');
    if (valued) continue;
    if (!arg.fixed && (arg.prefix === '' || arg.prefix.startsWith('-')))
      return `${shown}: an expansion that may be a primary such as -delete`;
    const text = arg.fixed ? arg.text : arg.prefix;
    if (!text.startsWith('-')) continue;
    if (FIND_PRIMARIES.has(text) || FIND_VALUED.has(text) || /^-newer[aBcm][aBcmt]$/.test(text)) {
      if (/^-newer[aBcm][aBcmt]$/.test(text)) i++;
      continue;
    }
    if (/^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(text))
      return `\`find ${text}\` writes or runs a program`;
    return `\`find ${shorten(text)}\` is not a primary baton knows to be read-only`;
  }
  return undefined;
}

/**
 * sed scripts from a small grammar: addresses, then commands that print, delete or edit the
 * pattern space (`p d q s/// y///`...). `w`, `W`, `e`, `s///w` and `s///e` write or run, `r`/`R`
 * read; anything else, and scripts in a file (`-f`), are not harmless. A delimiter inside a
 * bracket expression is refused: GNU and BSD sed disagree on where such a regex ends.
 */
function sed(args: Arg[]): string | undefined {
  const { operands, reason } = scan(args, 'sed', {
    valued: 'efl',
    // -I: BSD sed's in-place.
    deny: 'ifI',
    denyLong: ['in-place', 'file'],
    valuedLong: ['expression', 'line-length'],
  });
  if (reason) return reason;
  // The scripts, found as sed's getopt finds them: `-e S`, `-neS`, `--expression=S`, `--expr S`.
  const scripts: Arg[] = [];
  let scriptOption = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const text = arg.fixed ? arg.text : arg.prefix;
    if (text === '--') break;
    const long = /^--([^=]+)(=?)/.exec(text);
    if (long && 'expression'.startsWith(long[1] as string)) {
      scriptOption = true;
      if (!arg.fixed) return `\`sed ${shorten(arg.source)}\`: a script baton cannot read`;
      if (long[2]) scripts.push({ ...arg, text: text.slice(long[0].length) });
      else if (args[i + 1]) scripts.push(args[++i] as Arg);
      continue;
    }
    if (long && 'line-length'.startsWith(long[1] as string) && !long[2]) i++;
    if (!/^-[^-]/.test(text)) continue;
    for (let c = 1; c < text.length; c++) {
      const letter = text.charAt(c);
      if (letter !== 'e' && letter !== 'l') continue;
      const rest = text.slice(c + 1);
      if (letter === 'e') {
        scriptOption = true;
        if (!arg.fixed) return `\`sed ${shorten(arg.source)}\`: a script baton cannot read`;
        if (rest) scripts.push({ ...arg, text: rest });
        else if (args[i + 1]) scripts.push(args[++i] as Arg);
      } else if (!rest) i++;
      break;
    }
  }
  if (!scriptOption) {
    const first = operands[0];
    if (first) scripts.push(first);
  }
  for (const script of scripts) {
    if (!script.fixed) return `\`sed ${shorten(script.source)}\`: a script baton cannot read`;
    const why = sedScript(script.text);
    if (why) return `\`sed '${shorten(script.text)}'\`: ${why}`;
  }
  return undefined;
}

function sedScript(script: string): string | undefined {
  let i = 0;
  const peek = () => script.charAt(i);
  const blank = () => {
    while (/[ \t]/.test(peek()) && i < script.length) i++;
  };
  /** A regex up to its unescaped delimiter; false when it cannot be read unambiguously. */
  const regex = (delim: string): boolean => {
    let bracket = false;
    for (; i < script.length; i++) {
      const c = script.charAt(i);
      if (c === '\n') return false;
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '[' && !bracket) {
        bracket = true;
        if (script.charAt(i + 1) === '^') i++;
        if (script.charAt(i + 1) === ']') i++;
      } else if (c === ']' && bracket) bracket = false;
      else if (c === delim) {
        if (bracket) return false;
        i++;
        return true;
      }
    }
    return false;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(peek())) {
      while (/[0-9]/.test(peek())) i++;
      if (peek() === '~') {
        i++;
        while (/[0-9]/.test(peek())) i++;
      }
      return true;
    }
    if (peek() === '$') {
      i++;
      return true;
    }
    if (peek() === '/' || peek() === '\\') {
      const delim = peek() === '\\' ? script.charAt(i + 1) : '/';
      i += peek() === '\\' ? 2 : 1;
      if (!delim || delim === '\n' || !regex(delim)) return false;
      while (/[IM]/.test(peek())) i++;
      return true;
    }
    return false;
  };
  while (i < script.length) {
    blank();
    if (/[;\n]/.test(peek())) {
      i++;
      continue;
    }
    if (i >= script.length) break;
    if (address()) {
      blank();
      if (peek() === ',') {
        i++;
        blank();
        if (/[+~]/.test(peek())) {
          i++;
          if (!/[0-9]/.test(peek())) return 'an address baton cannot read';
          while (/[0-9]/.test(peek())) i++;
        } else if (!address()) return 'an address baton cannot read';
      }
      blank();
    } else if (/[/\\0-9$]/.test(peek())) return 'an address baton cannot read';
    while (peek() === '!') i++;
    blank();
    const command = peek();
    i++;
    if (command === '{') continue;
    if ('pPdDnNgGhHxzF=l}'.includes(command)) {
      if (command === 'l') while (/[0-9]/.test(peek())) i++;
    } else if ('aicrR'.includes(command) || ':btT'.includes(command)) {
      // Text to insert, a file to read or a label: the rest of the line.
      if (':btT'.includes(command)) while (i < script.length && !/[;\n]/.test(peek())) i++;
      else while (i < script.length && peek() !== '\n') i += peek() === '\\' ? 2 : 1;
    } else if (command === 'q' || command === 'Q') {
      blank();
      while (/[0-9]/.test(peek())) i++;
    } else if (command === 's' || command === 'y') {
      const delim = peek();
      i++;
      if (!delim || delim === '\n' || delim === '\\') return 'a substitution baton cannot read';
      if (!regex(delim) || !regex(delim)) return 'a substitution baton cannot read unambiguously';
      if (command === 's') {
        while (/[gpiImM0-9]/.test(peek())) i++;
        if (/[we]/.test(peek()))
          return `the \`${peek()}\` flag of \`s\` ${peek() === 'w' ? 'writes a file' : 'runs a command'}`;
      }
    } else if ('wWe'.includes(command)) {
      return `the \`${command}\` command ${command === 'e' ? 'runs a command' : 'writes a file'}`;
    } else {
      return `the \`${command}\` command is not one baton knows to be read-only`;
    }
    blank();
    if (i < script.length && !/[;\n}]/.test(peek())) return 'a command baton cannot read';
  }
  return undefined;
}

/** git verbs that read, each with the options that would write, run a program or page. */
const GIT_GLOBAL = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
]);
/** Every verb: `--output` writes, external diff and textconv, signatures (gpg) and pagers run programs. */
const GIT_DENY = [
  'output',
  'output-directory',
  'ext-diff',
  'textconv',
  'show-signature',
  'open-files-in-pager',
  'paginate',
  'exec',
  'upload-pack',
  'receive-pack',
  'edit',
  'interactive',
  'filters',
];
const GIT_VERBS: Record<string, (args: Arg[]) => string | undefined> = {
  status: gitOptions(),
  diff: gitOptions(),
  log: gitOptions(),
  show: gitOptions(),
  whatchanged: gitOptions(),
  shortlog: gitOptions(),
  'rev-parse': gitOptions(),
  'rev-list': gitOptions(),
  'ls-files': gitOptions(),
  'ls-tree': gitOptions(),
  'cat-file': gitOptions(),
  'show-ref': gitOptions(),
  'merge-base': gitOptions(),
  'name-rev': gitOptions(),
  describe: gitOptions(),
  'diff-tree': gitOptions(),
  'diff-index': gitOptions(),
  'diff-files': gitOptions(),
  'for-each-ref': gitOptions(),
  'check-ignore': gitOptions(),
  'count-objects': gitOptions(),
  version: gitOptions(),
  blame: gitOptions(),
  grep: gitOptions('O'),
  add: gitOptions('eip', ['patch']),
  branch: gitListing('branch', 'dDmMcCfu', [
    'delete',
    'move',
    'copy',
    'force',
    'set-upstream-to',
    'unset-upstream',
    'edit-description',
    'track',
    'create-reflog',
  ]),
  tag: gitListing('tag', 'dfsuvae', [
    'delete',
    'force',
    'sign',
    'local-user',
    'verify',
    'annotate',
    'message',
    'file',
    'create-reflog',
  ]),
  stash: gitSub('stash', ['list', 'show']),
  worktree: gitSub('worktree', ['list']),
  reflog: gitSub('reflog', ['show'], true),
  remote: gitSub('remote', ['get-url'], true),
};

function gitOptions(deny = '', denyLong: string[] = []): (args: Arg[]) => string | undefined {
  return (args) => scan(args, 'git', { deny, denyLong: [...GIT_DENY, ...denyLong] }).reason;
}

/** `git branch`/`git tag` list; with a name (and no `--list`) they create one. */
function gitListing(verb: string, deny: string, denyLong: string[]): (args: Arg[]) => string | undefined {
  return (args) => {
    const { operands, reason } = scan(args, `git ${verb}`, {
      deny,
      denyLong: [...GIT_DENY, ...denyLong],
      valued: 'n',
      valuedLong: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'column'],
    });
    if (reason) return reason;
    const listing = args.some((a) => a.fixed && (a.text === '--list' || /^-[a-zA-Z]*l/.test(a.text)));
    if (operands.length > 0 && !listing)
      return `\`git ${verb} ${shorten(operands[0]?.source ?? '')}\` creates a ${verb}`;
    return undefined;
  };
}

/** Verbs with subcommands: only the listed (reading) ones; `bare` allows no subcommand (and flags). */
function gitSub(verb: string, reads: string[], bare = false): (args: Arg[]) => string | undefined {
  return (args) => {
    const first = args.find((a) => !(a.fixed && a.text.startsWith('-')));
    if (first === undefined ? bare : first.fixed && reads.includes(first.text))
      return scan(args, `git ${verb}`, { denyLong: GIT_DENY }).reason;
    const shown = first ? `git ${verb} ${shorten(first.source)}` : `git ${verb}`;
    return `\`${shown}\` can change the repository; only ${reads.join(', ')} are read-only`;
  };
}

function git(args: Arg[]): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (!arg.fixed) return `\`git ${shorten(arg.source)}\`: an argument baton cannot read`;
    if (!arg.text.startsWith('-')) break;
    if (arg.text === '--version') return undefined;
    if (!GIT_GLOBAL.has(arg.text)) {
      const why = /^-c|^--config-env/.test(arg.text)
        ? 'sets configuration, which can name programs git runs'
        : /^(-C|--git-dir|--work-tree|--namespace|--exec-path)/.test(arg.text)
          ? 'points git at another repository or program, whose configuration baton has not read'
          : 'is an option baton does not prove harmless';
      return `\`git ${shorten(arg.text)}\` ${why}`;
    }
  }
  const verb = args[i];
  if (!verb) return undefined;
  const check = Object.hasOwn(GIT_VERBS, verb.text) ? GIT_VERBS[verb.text] : undefined;
  if (!check)
    return `\`git ${shorten(verb.text)}\` is not a git verb baton knows to be read-only (aliases run programs)`;
  return check(args.slice(i + 1));
}

const PROGRAMS: Record<string, Check> = {
  cat: anyArgs,
  head: anyArgs,
  tail: anyArgs,
  wc: anyArgs,
  ls: anyArgs,
  grep: anyArgs,
  egrep: anyArgs,
  fgrep: anyArgs,
  stat: anyArgs,
  diff: anyArgs,
  cmp: anyArgs,
  basename: anyArgs,
  dirname: anyArgs,
  realpath: anyArgs,
  readlink: anyArgs,
  cut: anyArgs,
  tr: anyArgs,
  nl: anyArgs,
  jq: anyArgs,
  echo: anyArgs,
  true: anyArgs,
  false: anyArgs,
  break: anyArgs,
  continue: anyArgs,
  exit: anyArgs,
  return: anyArgs,
  ':': anyArgs,
  pwd: anyArgs,
  cd: anyArgs,
  pushd: anyArgs,
  popd: anyArgs,
  dirs: anyArgs,
  type: anyArgs,
  which: anyArgs,
  du: anyArgs,
  df: anyArgs,
  paste: anyArgs,
  comm: anyArgs,
  join: anyArgs,
  fold: anyArgs,
  tac: anyArgs,
  rev: anyArgs,
  seq: anyArgs,
  od: anyArgs,
  md5sum: anyArgs,
  sha1sum: anyArgs,
  sha256sum: anyArgs,
  sha512sum: anyArgs,
  cksum: anyArgs,
  whoami: anyArgs,
  id: anyArgs,
  uname: anyArgs,
  printenv: anyArgs,
  sleep: anyArgs,
  baton,
  // The Eneo helpers shipped with baton: shims over `baton task` (compat/eneo/bin).
  'eneo-phase-set': anyArgs,
  'eneo-task-init': anyArgs,
  'eneo-task-update': anyArgs,
  printf,
  read,
  set,
  wait: anyArgs,
  shift: anyArgs,
  test,
  '[': test,
  env,
  find,
  sed,
  git,
  rg: options({ denyLong: ['pre', 'hostname-bin'] }),
  sort: options({
    valued: 'kotST',
    deny: 'oT',
    denyLong: ['output', 'temporary-directory', 'compress-program'],
    valuedLong: ['key', 'output', 'field-separator', 'buffer-size', 'temporary-directory', 'compress-program'],
  }),
  uniq: options({ valued: 'fsw', valuedLong: ['skip-fields', 'skip-chars', 'check-chars'], maxOperands: 1 }),
  file: options({ valued: 'eFfmP', deny: 'C', denyLong: ['compile'] }),
  date: options({ valued: 'dfrs', deny: 's', denyLong: ['set'] }),
};
