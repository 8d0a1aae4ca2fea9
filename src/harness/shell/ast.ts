/**
 * The syntax tree of a shell command, as much of bash's grammar as the policy needs to find every
 * command and every write: words keep their quoting (so `'te''sts'` and `te\sts` read as `tests`
 * and a quoted `*` is no glob), expansions keep their inner scripts (a `$(...)` runs commands too).
 */
export type WordPart =
  /** Unquoted text: subject to brace expansion, globbing and tilde expansion. */
  | { type: 'lit'; value: string }
  /** Quoted or escaped text: taken as is. */
  | { type: 'quoted'; value: string }
  | { type: 'dquote'; parts: WordPart[] }
  /** `$x`, `${x}`, `${x:-word}`...; `op` is the operator text ('' for a plain reference), `arg` its operand. */
  | { type: 'param'; name: string; op: string; arg?: Word }
  /** `$(...)` and backquotes. */
  | { type: 'command'; script: Script }
  /** `$((...))`; its text may hold command substitutions (`inner`). */
  | { type: 'arith'; text: string; inner: Script[] }
  /** `<(...)` and `>(...)`. */
  | { type: 'process'; op: '<' | '>'; script: Script }
  /** An extglob group `@(a|b)`: a glob, taken as text. */
  | { type: 'extglob'; value: string };

export interface Word {
  parts: WordPart[];
  /** The source text of the word, for messages. */
  text: string;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `<`, `<>`, `&>`, `&>>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The fd number or `{name}` written before the operator, '' when none. */
  fd: string;
  target: Word;
  /** Here-document body; `heredocQuoted` when its delimiter was quoted (no expansions). */
  heredoc?: Word;
  heredocQuoted?: boolean;
}

export interface Assignment {
  name: string;
  append: boolean;
  value?: Word;
  /** `a=(x y z)` */
  array?: Word[];
}

export type Command =
  | { type: 'simple'; assigns: Assignment[]; words: Word[]; redirects: Redirect[] }
  | { type: 'subshell'; body: Script; redirects: Redirect[] }
  | { type: 'group'; body: Script; redirects: Redirect[] }
  | { type: 'if'; clauses: { cond: Script; body: Script }[]; otherwise?: Script; redirects: Redirect[] }
  | { type: 'loop'; until: boolean; cond: Script; body: Script; redirects: Redirect[] }
  | { type: 'for'; name: string; items?: Word[]; body: Script; redirects: Redirect[] }
  | { type: 'case'; word: Word; items: { patterns: Word[]; body: Script }[]; redirects: Redirect[] }
  | { type: 'function'; name: string; body: Command }
  | { type: 'test'; words: Word[]; redirects: Redirect[] }
  | { type: 'arith'; text: string; inner: Script[]; redirects: Redirect[] };

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

/** Pipelines joined by `&&` / `||` (`ops[i]` joins `pipelines[i]` and `pipelines[i + 1]`). */
export interface AndOr {
  pipelines: Pipeline[];
  ops: ('&&' | '||')[];
  background: boolean;
}

export type Script = AndOr[];
