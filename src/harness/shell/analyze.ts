/**
 * Every file a shell command may write, read from its syntax tree: redirections of every kind,
 * the target arguments of known writers (commands.ts), through `cd`/`pushd`, variables the
 * command sets itself, braces and globs, nested `bash -c` strings and `eval` of literal text.
 * What it cannot resolve it reports with the construct that hid it (a `Write` with `unknown`, or
 * an `Opaque` program text) so the policy can fail closed. Programs a command runs may write
 * files internally (a test runner, a build script): that is outside what a reading can see.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { AndOr, Command, Redirect, Script, Word, WordPart } from './ast.js';
import { cloneEnv, expandWord, globPaths, type Env, type Field } from './expand.js';
import { parseShell, ShellSyntaxError } from './parser.js';
import { runCommand } from './commands.js';

export interface Write {
  /** The target as written (after quote removal), for messages. */
  given: string;
  /** Absolute candidate paths; for an unknown target, the paths its known text would name. */
  paths: string[];
  /** The construct baton cannot see through (`command substitution $(...)`, `eval`...). */
  unknown?: string;
  /** How it writes: `redirect >|`, `rm`, `sed -i`... */
  via: string;
  delete?: boolean;
  /** The target is a folder written recursively (rm -r, find -delete, git checkout dir). */
  tree?: boolean;
  /** Only the entries of the folder whose name matches this glob (`find -name`). */
  name?: string;
  /** An unknown target whose folders (`paths`) are known: the file name is `prefix` + unknown + `suffix`. */
  lastName?: { prefix: string; suffix: string };
}

/** A program text baton cannot analyse (an interpreter one-liner that may write, a non-literal eval). */
export interface Opaque {
  construct: string;
}

export interface Analysis {
  writes: Write[];
  opaque: Opaque[];
  /** Every literal word and piece of text, to ask whether the command names a protected path. */
  names: string[];
  /** The folders the command may run in (for resolving names). */
  cwds: string[];
}

export type WriteFlags = Pick<Write, 'delete' | 'tree' | 'name'>;

export interface Stdin {
  /** The literal text on standard input (a here-document or here-string), if known. */
  text?: string;
  /** Where unknown standard input comes from (`a pipe`, `a file`). */
  from?: string;
}

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export function analyzeShell(command: string, cwd: string, home: string): Analysis {
  const analysis: Analysis = { writes: [], opaque: [], names: [], cwds: [cwd] };
  const walker = new Walker(analysis);
  const env: Env = { cwd: [cwd], vars: new Map(), home, links: new Map(), dirs: [] };
  walker.text(command, env, 'the command');
  return analysis;
}

/** How deep texts may nest (`bash -c` inside `eval` inside ...) before baton stops reading. */
const MAX_NESTING = 16;

export class Walker {
  private nesting = 0;

  constructor(readonly out: Analysis) {}

  /** Parses and walks a script text (the command itself, a `bash -c` string, an eval). */
  text(source: string, env: Env, what: string): Env {
    this.out.names.push(...rawNames(source));
    if (this.nesting >= MAX_NESTING) {
      this.out.opaque.push({ construct: `${what}, nested more than ${MAX_NESTING} levels deep` });
      return env;
    }
    this.nesting++;
    try {
      return this.parsed(source, env, what);
    } finally {
      this.nesting--;
    }
  }

  private parsed(source: string, env: Env, what: string): Env {
    let script: Script;
    try {
      script = parseShell(source);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      this.out.opaque.push({ construct: `${what}, which baton cannot parse (${error.message})` });
      return env;
    }
    return this.script(script, env);
  }

  script(script: Script, env: Env): Env {
    let current = env;
    for (const item of script) current = this.andOr(item, current);
    return current;
  }

  private andOr(item: AndOr, env: Env): Env {
    const states = [cloneEnv(env)];
    let current = env;
    for (const pipeline of item.pipelines) {
      if (pipeline.commands.length === 1) current = this.command(pipeline.commands[0] as Command, current, {});
      else
        pipeline.commands.forEach((command, i) =>
          this.command(command, cloneEnv(current), i === 0 ? {} : { from: 'a pipe' }),
        );
      states.push(cloneEnv(current));
    }
    return item.pipelines.length === 1 ? current : merge(states);
  }

  command(command: Command, env: Env, stdin: Stdin): Env {
    switch (command.type) {
      case 'simple':
        return this.simple(command, env, stdin);
      case 'subshell':
        this.redirects(command.redirects, env);
        this.script(command.body, cloneEnv(env));
        return env;
      case 'group':
        this.redirects(command.redirects, env);
        return this.script(command.body, env);
      case 'if': {
        this.redirects(command.redirects, env);
        const states: Env[] = [];
        let current = env;
        for (const clause of command.clauses) {
          current = this.script(clause.cond, current);
          states.push(this.script(clause.body, cloneEnv(current)));
        }
        states.push(command.otherwise ? this.script(command.otherwise, cloneEnv(current)) : current);
        return merge(states);
      }
      case 'loop': {
        this.redirects(command.redirects, env);
        const after = this.script(command.cond, env);
        return merge([after, this.script(command.body, cloneEnv(after))]);
      }
      case 'for': {
        this.redirects(command.redirects, env);
        const body = cloneEnv(env);
        if (command.name) body.vars.set(command.name, command.items ? this.values(command.items, env) : undefined);
        return merge([env, this.script(command.body, body)]);
      }
      case 'case': {
        this.redirects(command.redirects, env);
        this.words([command.word, ...command.items.flatMap((item) => item.patterns)], env);
        return merge([env, ...command.items.map((item) => this.script(item.body, cloneEnv(env)))]);
      }
      case 'function':
        this.command(command.body, cloneEnv(env), {});
        return env;
      case 'test':
        this.redirects(command.redirects, env);
        this.words(command.words, env);
        return env;
      case 'arith':
        this.redirects(command.redirects, env);
        for (const inner of command.inner) this.script(inner, cloneEnv(env));
        return env;
    }
  }

  private simple(command: Extract<Command, { type: 'simple' }>, env: Env, stdin: Stdin): Env {
    for (const assign of command.assigns)
      this.words([...(assign.value ? [assign.value] : []), ...(assign.array ?? [])], env);
    const argv = this.words(command.words, env);
    const input = this.redirects(command.redirects, env) ?? stdin;
    if (argv.length === 0) {
      for (const assign of command.assigns) {
        const values = assign.array ? undefined : assign.value ? fieldValues(expandWord(assign.value, env)) : [''];
        env.vars.set(assign.name, assign.append ? undefined : values);
      }
      return env;
    }
    return runCommand(this, argv, env, input);
  }

  /** Expands words (walking the scripts inside them) into the fields bash would pass. */
  words(words: Word[], env: Env): Field[] {
    const fields: Field[] = [];
    for (const word of words) {
      this.nestedIn(word.parts, env);
      const expanded = expandWord(word, env);
      for (const field of expanded) this.out.names.push(...field.text.split('*').filter(Boolean));
      fields.push(...expanded);
    }
    return fields;
  }

  private values(words: Word[], env: Env): string[] | undefined {
    return fieldValues(this.words(words, env));
  }

  /** Scripts inside a word run too: `$(...)`, backquotes, `<(...)`, `$((...))`, `${x:-$(...)}`. */
  nestedIn(parts: WordPart[], env: Env): void {
    for (const part of parts) {
      if (part.type === 'command' || part.type === 'process') this.script(part.script, cloneEnv(env));
      else if (part.type === 'arith') for (const inner of part.inner) this.script(inner, cloneEnv(env));
      else if (part.type === 'dquote') this.nestedIn(part.parts, env);
      else if (part.type === 'param' && part.arg) this.nestedIn(part.arg.parts, env);
    }
  }

  /** Records the writes among redirections; returns what they put on standard input. */
  redirects(redirects: Redirect[], env: Env): Stdin | undefined {
    let stdin: Stdin | undefined;
    for (const redirect of redirects) {
      const fields = this.words([redirect.target], env);
      if (redirect.heredoc) {
        if (!redirect.heredocQuoted) this.nestedIn(redirect.heredoc.parts, env);
        this.out.names.push(...rawNames(redirect.heredoc.text));
        const text = fieldValues(expandWord(redirect.heredoc, env));
        stdin = text?.length === 1 ? { text: text[0] as string } : { from: 'a here-document with expansions' };
      } else if (redirect.op === '<<<') {
        const text = fieldValues(fields);
        stdin = text?.length === 1 ? { text: `${text[0]}\n` } : { from: 'a here-string with expansions' };
      } else if (redirect.op === '<' && (redirect.fd === '' || redirect.fd === '0')) {
        stdin = { from: 'a file' };
      }
      const dup = (redirect.op === '>&' || redirect.op === '<&') && fields.every((f) => /^(\d+-?|-)$/.test(f.text));
      const writes = WRITE_OPS.has(redirect.op) || (redirect.op === '>&' && !dup);
      if (writes) for (const field of fields) this.write(field, env, `redirect ${redirect.fd}${redirect.op}`);
    }
    return stdin;
  }

  /** Records one target: resolved against every folder the command may be in, through globs and links. */
  write(field: Field, env: Env, via: string, flags: WriteFlags = {}): void {
    const given = field.text;
    const rel = !isAbsolute(field.text);
    const cwds = rel ? env.cwd : ['/'];
    const base = { given, via, ...flags };
    if (field.unknown || !cwds) {
      const known = field.unknown ? field.text.slice(0, field.text.indexOf('*')) : field.text;
      const folder = known.slice(0, known.lastIndexOf('/') + 1);
      const name = field.text.slice(folder.length);
      const unknown = field.unknown ?? 'a cd into a folder baton cannot tell';
      // Unknown only inside the file name of a literal folder (`logs/run-$(date +%F).txt`, `.e$(x)v`):
      // the policy asks which names that could be. Anything else: the folder is unknown too.
      if (field.unknown && cwds && !name.includes('/') && (folder !== '' || name !== '*')) {
        const lastName = { prefix: name.slice(0, name.indexOf('*')), suffix: name.slice(name.lastIndexOf('*') + 1) };
        this.out.writes.push({ ...base, paths: cwds.map((cwd) => resolve(cwd, folder || '.')), unknown, lastName });
        return;
      }
      const paths = cwds && folder ? cwds.map((cwd) => resolve(cwd, folder, '*')) : [];
      this.out.writes.push({ ...base, paths, unknown });
      return;
    }
    const paths: string[] = [];
    for (const cwd of cwds) {
      const found = globPaths(field, cwd);
      if (!found) {
        this.out.writes.push({ ...base, paths: [], unknown: `a glob matching too many paths` });
        return;
      }
      for (const path of found) paths.push(...throughLinks(path, env.links));
    }
    this.out.writes.push({ ...base, paths });
  }

  /** A write whose target comes from somewhere baton cannot read (xargs input, a command name from an expansion). */
  unknownWrite(
    given: string,
    env: Env,
    via: string,
    construct: string,
    flags: { delete?: boolean; tree?: boolean } = {},
  ): void {
    const paths = env.cwd && given ? env.cwd.map((cwd) => resolve(cwd, given)) : [];
    this.out.writes.push({ given, paths, via, unknown: construct, ...flags });
  }

  /** Whether a path was named as a write target earlier in this command (a script written, then run). */
  wroteEarlier(field: Field, env: Env): boolean {
    if (field.unknown) return false;
    const paths = (env.cwd ?? []).map((cwd) => resolve(cwd, field.text));
    return this.out.writes.some((write) => write.paths.some((p) => paths.includes(p)));
  }

  opaque(construct: string): void {
    this.out.opaque.push({ construct });
  }

  addCwds(env: Env): void {
    if (env.cwd) for (const cwd of env.cwd) if (!this.out.cwds.includes(cwd)) this.out.cwds.push(cwd);
  }
}

/** The literal values of fields, or undefined when any is unknown. */
function fieldValues(fields: Field[]): string[] | undefined {
  return fields.some((f) => f.unknown) ? undefined : fields.map((f) => f.text);
}

/** Path-like tokens of a text with quotes and backslashes removed, so `'te''sts'` and `te\sts` both read `tests`. */
export function rawNames(text: string): string[] {
  return text
    .replace(/["'\\]/g, '')
    .split(/[\s;&|<>()`$={},:+]+/)
    .filter((token) => token !== '' && token.length < 4096);
}

/** States that may follow a branch point: values they disagree on become unknown, folders are unioned. */
function merge(states: Env[]): Env {
  const first = states[0] as Env;
  const vars = new Map<string, string[] | undefined>();
  const names = new Set(states.flatMap((s) => [...s.vars.keys()]));
  for (const name of names) {
    const values = states.map((s) => (s.vars.has(name) ? s.vars.get(name) : undefined));
    vars.set(name, values.some((v) => v === undefined) ? undefined : union(values as string[][]));
  }
  const cwd = states.some((s) => s.cwd === undefined) ? undefined : union(states.map((s) => s.cwd as string[]));
  return { cwd, vars, home: first.home, links: first.links, dirs: first.dirs };
}

function union(lists: string[][]): string[] | undefined {
  const all = [...new Set(lists.flat())];
  return all.length > 32 ? undefined : all;
}

/** A path, and the same path through a symlink the command made earlier (`ln -s tests lnk`). */
function throughLinks(path: string, links: Map<string, string>): string[] {
  for (const [link, target] of links) {
    if (path === link || path.startsWith(`${link}/`)) return [path, join(target, path.slice(link.length))];
  }
  return [path];
}

export function linkTarget(link: string, target: string): string {
  return isAbsolute(target) ? resolve(target) : resolve(dirname(link), target);
}
