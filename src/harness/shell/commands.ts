/**
 * What known commands do to the shell's state and to files: `cd`/`pushd`/`popd` and `export`
 * change the environment later commands see; writers (cp, mv, rm, sed -i, git checkout...) name
 * their targets; wrappers (sudo, env, timeout, xargs...) run another command; shells and `eval`
 * run text; interpreters run a program text baton can only inspect (interpreters.ts).
 */
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { linkTarget, type Stdin, type Walker, type WriteFlags } from './analyze.js';
import { patchPaths } from './apply-patch.js';
import { cloneEnv, type Env, type Field } from './expand.js';
import { interpreterRisk, isInterpreter } from './interpreters.js';
import { isDirectory } from '../../fs/stat.js';

type Flags = WriteFlags;
interface Ctx {
  walker: Walker;
  env: Env;
  stdin: Stdin;
  name: string;
  write(field: Field, flags?: Flags): void;
}
type Handler = (args: Field[], ctx: Ctx) => Env | void;

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
const EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'pico', 'micro']);

export function runCommand(walker: Walker, argv: Field[], env: Env, stdin: Stdin): Env {
  const head = argv[0] as Field;
  const args = argv.slice(1);
  if (head.unknown) {
    for (const arg of args) walker.unknownWrite(arg.text, env, 'a command', `a command name from ${head.unknown}`);
    if (args.length === 0) walker.opaque(`a command name from ${head.unknown}`);
    return env;
  }
  const name = basename(head.text);
  const ctx: Ctx = { walker, env, stdin, name, write: (field, flags) => walker.write(field, env, name, flags) };
  // A script the same command writes and then runs cannot be read beforehand.
  const script =
    SHELLS.has(name) || name === 'source' || name === '.' || isInterpreter(name)
      ? args.find((a) => !a.text.startsWith('-'))
      : undefined;
  if (walker.wroteEarlier(head, env) || (script && walker.wroteEarlier(script, env)))
    walker.opaque(`running ${script?.text ?? head.text}, which this command writes first`);
  const handler = HANDLERS[name] ?? (SHELLS.has(name) ? shell : EDITORS.has(name) ? editor : undefined);
  if (handler) return handler(args, ctx) ?? env;
  const risk = interpreterRisk(
    name,
    args.map((a) => a.text),
    stdin,
  );
  if (risk) walker.opaque(risk);
  return env;
}

/** Arguments that are not options (`--` ends options); `withValue` lists short options that take the next word. */
function positional(args: Field[], withValue = ''): Field[] {
  const out: Field[] = [];
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Field;
    if (!done && arg.text === '--') done = true;
    else if (!done && arg.text.startsWith('-') && arg.text !== '-' && !arg.unknown) {
      if (/^-[A-Za-z]$/.test(arg.text) && withValue.includes(arg.text.charAt(1))) i++;
    } else out.push(arg);
  }
  return out;
}

function editor(args: Field[], ctx: Ctx): void {
  for (const arg of positional(args, 'cS')) if (!arg.text.startsWith('+')) ctx.write(arg);
}

function hasFlag(args: Field[], short: string, long: string[] = []): boolean {
  return args.some(
    (a) =>
      (/^-[A-Za-z]+$/.test(a.text) && [...short].some((c) => a.text.includes(c))) ||
      long.some((l) => a.text === l || a.text.startsWith(`${l}=`)),
  );
}

/** cp/mv/install/ln: the destination (with `-t DIR`), or the last operand. */
function destination(args: Field[], ctx: Ctx, flags: Flags, withValue: string): void {
  const target = args.findIndex((a) => a.text === '-t' || a.text.startsWith('--target-directory'));
  const files = positional(args, `${withValue}t`).filter((a) => !a.text.startsWith('--target-directory'));
  if (target >= 0) {
    const dir = args[target]?.text.includes('=')
      ? { ...args[target], text: args[target].text.split('=').slice(1).join('=') }
      : args[target + 1];
    if (dir) ctx.write(dir, flags);
    for (const file of files) if (dir) ctx.write(joinField(dir, file), flags);
    return;
  }
  const dest = files[files.length - 1];
  if (!dest) return;
  ctx.write(dest, flags);
  // Into a folder only when there are several sources or the destination is (or reads as) one.
  const folder =
    files.length > 2 ||
    dest.text.endsWith('/') ||
    (ctx.env.cwd ?? []).some((cwd) => isDirectory(resolve(cwd, dest.text)));
  if (folder) for (const file of files.slice(0, -1)) ctx.write(joinField(dest, file), flags);
}

/** `dir/basename(file)`: where cp and mv put a file when the destination is a folder. */
function joinField(dir: Field, file: Field): Field {
  const text = `${dir.text.replace(/\/+$/, '')}/${basename(file.text.replace(/\/+$/, '')) || '*'}`;
  const unknown = dir.unknown ?? file.unknown;
  return {
    text,
    glob: dir.glob,
    pieces: [...dir.pieces, { c: '/', q: true }, ...[...(basename(file.text) || '*')].map((c) => ({ c, q: true }))],
    ...(unknown ? { unknown } : {}),
  };
}

function recursive(args: Field[]): boolean {
  return hasFlag(args, 'rR', ['--recursive']);
}

function cd(args: Field[], ctx: Ctx, push = false): Env {
  const { env } = ctx;
  const dir = positional(args)[0];
  const before = env.cwd;
  if (!dir) env.cwd = push ? env.cwd : [env.home];
  else if (dir.text === '-' || dir.unknown || dir.glob) env.cwd = undefined;
  else env.cwd = env.cwd?.map((cwd) => resolve(cwd, dir.text));
  if (push && before) env.dirs.push(before);
  ctx.walker.addCwds(env);
  return env;
}

function assignments(args: Field[], ctx: Ctx): void {
  for (const arg of args) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/s.exec(arg.text);
    if (m) ctx.env.vars.set(m[1] as string, arg.unknown || m[2] ? undefined : [m[3] as string]);
    else if (!arg.text.startsWith('-')) ctx.env.vars.set(arg.text, ctx.env.vars.get(arg.text));
  }
}

/** Runs the command after a wrapper's own options (`sudo -u x cmd`, `timeout 5 cmd`). */
function wrapper(withValue: string, skipFirst = false): Handler {
  return (args, ctx) => {
    let i = 0;
    for (; i < args.length; i++) {
      const text = (args[i] as Field).text;
      if (text === '--') {
        i++;
        break;
      }
      if (!text.startsWith('-') || text === '-') break;
      if (/^-[A-Za-z]$/.test(text) && withValue.includes(text.charAt(1))) i++;
    }
    if (skipFirst) i++;
    const rest = args.slice(i);
    return rest.length ? runCommand(ctx.walker, rest, ctx.env, ctx.stdin) : undefined;
  };
}

function env(args: Field[], ctx: Ctx): Env | void {
  let i = 0;
  const inner = cloneEnv(ctx.env);
  for (; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (text === '-C' || text === '--chdir') {
      const dir = args[++i];
      inner.cwd = dir && !dir.unknown ? inner.cwd?.map((cwd) => resolve(cwd, dir.text)) : undefined;
    } else if (text === '-S' || text === '--split-string') {
      const script = args[i + 1];
      if (script) ctx.walker.text(script.unknown ? '' : script.text, inner, 'env -S');
      return;
    } else if (text === '-u' || text === '--unset') i++;
    else if (!(text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(text))) break;
  }
  const rest = args.slice(i);
  if (rest.length) runCommand(ctx.walker, rest, inner, ctx.stdin);
}

/** bash/sh/zsh...: `-c STRING` and scripts on standard input are parsed and walked like the command. */
function shell(args: Field[], ctx: Ctx): void {
  let i = 0;
  let command = false;
  for (; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (text === '--' || text === '-') {
      i++;
      break;
    }
    if (!/^[-+]/.test(text)) break;
    if (/^[-+]o$/.test(text) || text === '-O' || text === '+O' || text === '--rcfile' || text === '--init-file') i++;
    else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(text)) command = true;
  }
  const inner = cloneEnv(ctx.env);
  if (command) {
    const script = args[i];
    if (!script) return;
    if (script.unknown) ctx.walker.opaque(`${ctx.name} -c with a command text from ${script.unknown}`);
    else ctx.walker.text(script.text, inner, `the ${ctx.name} -c text`);
  } else if (i >= args.length) {
    if (ctx.stdin.text !== undefined) ctx.walker.text(ctx.stdin.text, inner, `the script ${ctx.name} reads`);
    else if (ctx.stdin.from) ctx.walker.opaque(`${ctx.name} reading commands from ${ctx.stdin.from}`);
  }
}

/** `source FILE` runs a file's commands: standard input and process substitutions are read or reported. */
function sourceFile(args: Field[], ctx: Ctx): void {
  const file = args[0];
  if (!file) return;
  if ((file.text === '/dev/stdin' || file.text === '-') && ctx.stdin.text !== undefined)
    ctx.walker.text(ctx.stdin.text, ctx.env, 'the sourced text');
  else if (file.unknown || file.text === '/dev/stdin')
    ctx.walker.opaque(`source of ${file.unknown ?? ctx.stdin.from ?? 'standard input'}`);
}

/** A command text another program hands to a shell (`flock -c`, `su -c`, `watch`). */
function shellText(field: Field | undefined, ctx: Ctx, what: string): void {
  if (!field) return;
  if (field.unknown) ctx.walker.opaque(`${what} with a command text from ${field.unknown}`);
  else ctx.walker.text(field.text, cloneEnv(ctx.env), `the ${what} text`);
}

function evalCommand(args: Field[], ctx: Ctx): Env {
  if (args.some((a) => a.unknown)) {
    ctx.walker.opaque(`eval of ${args.find((a) => a.unknown)?.unknown}`);
    return ctx.env;
  }
  return ctx.walker.text(args.map((a) => a.text).join(' '), ctx.env, 'the eval text');
}

function sed(args: Field[], ctx: Ctx): void {
  let inPlace = false;
  let script = false;
  const files: Field[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Field;
    const text = arg.text;
    if (text === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (text.startsWith('--')) {
      if (text.startsWith('--in-place')) inPlace = true;
      else if (text === '--expression' || text === '--file' || text === '--line-length') {
        i++;
        script = script || text !== '--line-length';
      } else if (text.startsWith('--expression=') || text.startsWith('--file=')) script = true;
    } else if (text.startsWith('-') && text.length > 1) {
      for (let k = 1; k < text.length; k++) {
        const c = text.charAt(k);
        if (c === 'i') {
          inPlace = true;
          break;
        }
        if (c === 'e' || c === 'f' || c === 'l') {
          if (k === text.length - 1) i++;
          if (c !== 'l') script = true;
          break;
        }
      }
    } else if (!script) script = true;
    else files.push(arg);
  }
  if (inPlace) for (const file of files) ctx.write(file);
}

function perl(args: Field[], ctx: Ctx): void {
  const inPlace = args.some((a) => /^-[A-Za-z0-9]*i/.test(a.text) && !a.text.startsWith('--'));
  if (!inPlace) {
    const risk = interpreterRisk(
      'perl',
      args.map((a) => a.text),
      ctx.stdin,
    );
    if (risk) ctx.walker.opaque(risk);
    return;
  }
  const files: Field[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (/^-[A-Za-z0-9]*[eE]$/.test(text)) i++;
    else if (!text.startsWith('-')) files.push(args[i] as Field);
  }
  // Without -e the first operand is the program file.
  const programFile = !args.some((a) => /^-[A-Za-z0-9]*[eE]$/.test(a.text));
  for (const file of programFile ? files.slice(1) : files) ctx.write(file);
}

function git(args: Field[], ctx: Ctx): Env | void {
  const inner = cloneEnv(ctx.env);
  let i = 0;
  for (; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (text === '-C') {
      const dir = args[++i];
      inner.cwd = dir && !dir.unknown ? inner.cwd?.map((cwd) => resolve(cwd, dir.text)) : undefined;
    } else if (text === '-c' || text === '--git-dir' || text === '--work-tree' || text === '--namespace') i++;
    else if (!text.startsWith('-')) break;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  const write = (field: Field, flags: Flags = {}) => ctx.walker.write(field, inner, `git ${sub}`, flags);
  const dash = rest.findIndex((a) => a.text === '--');
  const afterDash = dash >= 0 ? rest.slice(dash + 1) : [];
  const beforeDash = dash >= 0 ? rest.slice(0, dash) : rest;
  const existing = (a: Field) =>
    !a.text.startsWith('-') &&
    (a.unknown !== undefined ||
      a.glob ||
      a.text.includes('/') ||
      a.text === '.' ||
      (inner.cwd ?? []).some((cwd) => existsSync(resolve(cwd, a.text))));
  const root: Field = { text: '.', glob: false, pieces: [{ c: '.', q: true }] };
  switch (sub) {
    case 'checkout':
    case 'restore':
    case 'rm':
    case 'clean': {
      if (sub === 'rm' && hasFlag(rest, '', ['--cached'])) return;
      if (sub === 'clean' && !hasFlag(rest, 'f', ['--force'])) return;
      const valued = sub === 'restore' ? 's' : sub === 'checkout' ? 'bB' : 'e';
      const paths = [...afterDash, ...positional(beforeDash, valued).filter((a) => sub !== 'checkout' || existing(a))];
      const flags = { tree: true, ...(sub === 'rm' || sub === 'clean' ? { delete: true } : {}) };
      if (paths.length === 0 && sub === 'clean') write(root, flags);
      for (const path of paths) write(path, flags);
      return;
    }
    case 'reset':
      if (hasFlag(rest, '', ['--hard', '--merge', '--keep'])) write(root, { tree: true });
      for (const path of [...afterDash, ...positional(beforeDash).filter(existing)]) write(path, { tree: true });
      return;
    case 'mv': {
      const files = positional(rest);
      for (const file of files) write(file, { tree: true, delete: true });
      return;
    }
    default:
      return;
  }
}

function find(args: Field[], ctx: Ctx): void {
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test((args[i] as Field).text)) i++;
  const roots: Field[] = [];
  for (; i < args.length && !/^[-(!]/.test((args[i] as Field).text); i++) roots.push(args[i] as Field);
  if (roots.length === 0) roots.push({ text: '.', glob: false, pieces: [{ c: '.', q: true }] });
  // A single -name narrows what is deleted (`find . -name '*.pyc' -delete`); -o or a -path does not.
  const names = args.flatMap((a, k) => (/^-i?name$/.test(a.text) && args[k + 1] ? [(args[k + 1] as Field).text] : []));
  const name =
    names.length === 1 && !args.some((a) => /^(-o|-or|-path|-ipath|-regex|-not|!)$/.test(a.text))
      ? names[0]
      : undefined;
  const tree = { tree: true, ...(name ? { name } : {}) };
  for (; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (text === '-delete') for (const root of roots) ctx.write(root, { delete: true, ...tree });
    else if (/^-f(print0?|printf|ls)$/.test(text) && args[i + 1]) ctx.write(args[++i] as Field);
    else if (/^-(exec|execdir|ok|okdir)$/.test(text)) {
      const end = args.findIndex((a, k) => k > i && (a.text === ';' || a.text === '+'));
      const inner = args.slice(i + 1, end < 0 ? args.length : end);
      i = end < 0 ? args.length : end;
      const marker = `\u0000find`;
      const probe = inner.map((a) => (a.text.includes('{}') ? { ...a, text: a.text.replaceAll('{}', marker) } : a));
      const before = ctx.walker.out.writes.length;
      const opaque = ctx.walker.out.opaque.length;
      if (probe.length) runCommand(ctx.walker, probe, cloneEnv(ctx.env), {});
      const found = ctx.walker.out.writes.splice(before).concat();
      if (found.length > 0 || ctx.walker.out.opaque.length > opaque) {
        for (const root of roots)
          ctx.write(root, { ...tree, ...(found.some((w) => w.delete) ? { delete: true } : {}) });
        for (const w of found) if (!w.given.includes(marker)) ctx.walker.out.writes.push(w);
      }
    }
  }
}

function rsync(args: Field[], ctx: Ctx): void {
  const files = positional(args, 'efB');
  const dest = files[files.length - 1];
  if (!dest || files.length < 2) return;
  ctx.write(dest, {
    tree: true,
    ...(hasFlag(args, '', ['--delete', '--delete-after', '--delete-before', '--delete-during', '--del'])
      ? { delete: true }
      : {}),
  });
  if (hasFlag(args, '', ['--remove-source-files']))
    for (const src of files.slice(0, -1)) ctx.write(src, { tree: true, delete: true });
}

function ln(args: Field[], ctx: Ctx): void {
  destination(args, ctx, {}, 'S');
  const files = positional(args, 'St');
  const link = files[files.length - 1];
  const target = files[0];
  const symbolic = hasFlag(args, 's', ['--symbolic']);
  // A hard link is the same file under a second name: later writes to it change the source.
  if (!symbolic) for (const source of files.slice(0, -1)) ctx.write(source);
  if (!symbolic || !link || !target || files.length !== 2 || link.unknown || target.unknown) return;
  for (const cwd of ctx.env.cwd ?? []) {
    const abs = isAbsolute(link.text) ? resolve(link.text) : resolve(cwd, link.text);
    const at = existsSync(abs) ? join(abs, basename(target.text)) : abs;
    ctx.env.links.set(at, linkTarget(at, target.text));
  }
}

function applyPatch(args: Field[], ctx: Ctx): void {
  const text = args[0] && !args[0].unknown ? args[0].text : ctx.stdin.text;
  if (text === undefined) {
    ctx.walker.opaque(
      `apply_patch with a patch from ${args[0]?.unknown ?? ctx.stdin.from ?? 'nowhere baton can read'}`,
    );
    return;
  }
  for (const path of patchPaths(text))
    ctx.write({ text: path, glob: false, pieces: [...path].map((c) => ({ c, q: true })) });
}

function xargs(args: Field[], ctx: Ctx): void {
  let i = 0;
  let replace: string | undefined;
  for (; i < args.length; i++) {
    const text = (args[i] as Field).text;
    if (!text.startsWith('-')) break;
    if (text === '-I') replace = args[++i]?.text;
    else if (text.startsWith('-I')) replace = text.slice(2);
    else if (/^-[nPdLsaEe]$/.test(text)) i++;
  }
  const stdinArg: Field = {
    text: '*',
    unknown: `xargs input from ${ctx.stdin.from ?? 'standard input'}`,
    glob: false,
    pieces: [],
  };
  const inner = args.slice(i).map((a) => (replace && a.text.includes(replace) ? stdinArg : a));
  if (inner.length === 0) return;
  if (!replace) inner.push(stdinArg);
  runCommand(ctx.walker, inner, cloneEnv(ctx.env), {});
}

const HANDLERS: Record<string, Handler> = {
  cd: (args, ctx) => cd(args, ctx),
  pushd: (args, ctx) => cd(args, ctx, true),
  popd: (_args, ctx) => {
    ctx.env.cwd = ctx.env.dirs.pop();
    return ctx.env;
  },
  export: assignments,
  declare: assignments,
  typeset: assignments,
  local: assignments,
  readonly: assignments,
  read: (args, ctx) => {
    for (const arg of positional(args, 'adinNptu')) ctx.env.vars.set(arg.text, undefined);
  },
  unset: (args, ctx) => {
    for (const arg of positional(args)) ctx.env.vars.set(arg.text, ['']);
  },
  eval: evalCommand,
  sudo: wrapper('ugUCDhprT'),
  doas: wrapper('uC'),
  nohup: wrapper(''),
  nice: wrapper('n'),
  ionice: wrapper('cnp'),
  stdbuf: wrapper('ioe'),
  setsid: wrapper(''),
  chronic: wrapper(''),
  unbuffer: wrapper(''),
  time: wrapper('fo'),
  timeout: wrapper('sk', true),
  command: (args, ctx) => (args[0]?.text === '-v' || args[0]?.text === '-V' ? undefined : wrapper('')(args, ctx)),
  builtin: wrapper(''),
  exec: wrapper('a'),
  env,
  xargs,
  busybox: wrapper(''),
  flock: (args, ctx) => {
    const text = args.findIndex((a) => a.text === '-c' || a.text === '--command');
    if (text >= 0) return shellText(args[text + 1], ctx, 'flock -c');
    return wrapper('wEn', true)(args, ctx);
  },
  su: (args, ctx) =>
    shellText(args[args.findIndex((a) => a.text === '-c' || a.text === '--command') + 1], ctx, 'su -c'),
  watch: (args, ctx) => {
    const rest = positional(args, 'nd');
    if (rest.length)
      shellText(
        {
          ...(rest[0] as Field),
          text: rest.map((a) => a.text).join(' '),
          ...(rest.some((a) => a.unknown) ? { unknown: rest.find((a) => a.unknown)?.unknown } : {}),
        },
        ctx,
        'watch',
      );
  },
  cp: (args, ctx) => {
    destination(args, ctx, { tree: recursive(args) }, 'S');
    // cp -l makes hard links: the sources become writable under the new names.
    if (hasFlag(args, 'l', ['--link']))
      for (const source of positional(args, 'St').slice(0, -1)) ctx.write(source, { tree: recursive(args) });
  },
  source: sourceFile,
  '.': sourceFile,
  install: (args, ctx) => {
    if (hasFlag(args, 'd', ['--directory'])) return;
    destination(args, ctx, {}, 'gmoSbt');
  },
  mv: (args, ctx) => {
    destination(args, ctx, { tree: true }, 'S');
    const files = positional(args, 'St');
    const sources = args.some((a) => a.text === '-t' || a.text.startsWith('--target-directory'))
      ? files
      : files.slice(0, -1);
    for (const source of sources) ctx.write(source, { delete: true, tree: true });
  },
  ln,
  dd: (args, ctx) => {
    for (const arg of args)
      if (arg.text.startsWith('of=')) ctx.write({ ...arg, text: arg.text.slice(3), pieces: arg.pieces.slice(3) });
  },
  tee: (args, ctx) => {
    for (const arg of positional(args)) ctx.write(arg);
  },
  truncate: (args, ctx) => {
    for (const arg of positional(args, 'sr').filter((a) => !/^--(size|reference)=/.test(a.text))) ctx.write(arg);
  },
  touch: (args, ctx) => {
    for (const arg of positional(args, 'drt')) ctx.write(arg);
  },
  rm: (args, ctx) => {
    const tree = recursive(args);
    for (const arg of positional(args)) ctx.write(arg, { delete: true, ...(tree ? { tree } : {}) });
  },
  rmdir: (args, ctx) => {
    for (const arg of positional(args)) ctx.write(arg, { delete: true });
  },
  unlink: (args, ctx) => {
    for (const arg of positional(args)) ctx.write(arg, { delete: true });
  },
  shred: (args, ctx) => {
    for (const arg of positional(args, 'ns')) ctx.write(arg, hasFlag(args, 'u', ['--remove']) ? { delete: true } : {});
  },
  rsync,
  sed,
  gsed: sed,
  perl,
  git,
  find,
  patch: (args, ctx) => {
    const files = positional(args, 'pidoBrDFVYzs');
    if (files[0]) ctx.write(files[0]);
    else ctx.walker.unknownWrite('', ctx.env, 'patch', 'patch targets named inside the patch');
  },
  sort: (args, ctx) => {
    const at = args.findIndex((a) => a.text === '-o' || a.text.startsWith('--output'));
    const out = args[at]?.text.includes('=')
      ? { ...args[at], text: args[at].text.replace(/^--output=/, '') }
      : args[at + 1];
    if (at >= 0 && out) ctx.write(out);
  },
  curl: (args, ctx) => {
    args.forEach((a, i) => {
      if ((a.text === '-o' || a.text === '--output') && args[i + 1]) ctx.write(args[i + 1] as Field);
    });
  },
  wget: (args, ctx) => {
    args.forEach((a, i) => {
      if ((a.text === '-O' || a.text === '--output-document') && args[i + 1]) ctx.write(args[i + 1] as Field);
    });
  },
  apply_patch: applyPatch,
  applypatch: applyPatch,
};
