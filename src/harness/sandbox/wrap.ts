/**
 * The rewritten shell command of a protected phase: the original, run by plugin/sandbox/run.sh
 * inside the OS sandbox, from an outer shell that keeps what the host keeps between calls.
 * Claude Code runs a Bash command by `eval` in a shell that sourced its snapshot of the user's
 * functions and aliases, then records `pwd -P`; so the outer text hands the snapshot's functions
 * and aliases to the inner shell, reads the inner shell's final folder back as a plain string
 * (never evaluated: the command may write anything there) and `cd`s to it, and returns the
 * inner status. Exported variables do not outlive a call in Claude Code, wrapped or not.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { twoLaneFnv1a } from '../../core/hash.js';
import type { HarnessConfig, RuleConfig } from '../../project/config.js';
import type { HookInput } from '../hooks/types.js';
import type { SandboxMode } from './probe.js';
import { protectedSet } from './protected.js';
import { seatbeltProfile } from './seatbelt.js';

export interface WrapRequest {
  mode: Extract<SandboxMode, { kind: 'bubblewrap' | 'sandbox-exec' }>;
  rules: RuleConfig[];
  input: HookInput;
  config: HarnessConfig;
  root: string;
  home: string;
  /** The CLI script of this process: baton's installation, and the run.sh shipped with it. */
  script: string | undefined;
  host: string;
}

/** A spec unused for this long is removed when another is written (a call waits on its permission prompt at most this long). */
const SPEC_AGE_MS = 24 * 3600 * 1000;
/** The functions and aliases handed to the inner shell, at most (an environment string past 128 KiB fails exec). */
const MAX_DEFS = 65536;

export function wrapCommand(request: WrapRequest): { command: string } | { problem: string } {
  const { root, input } = request;
  const packageDir = installation(request.script);
  const runner =
    packageDir &&
    [join(packageDir, 'sandbox', 'run.sh'), join(packageDir, 'plugin', 'sandbox', 'run.sh')].find((f) => existsSync(f));
  if (!runner)
    return { problem: `baton's sandbox script (sandbox/run.sh) is missing from ${packageDir ?? 'its installation'}` };
  const dir = join(root, '.baton', 'sandbox');
  try {
    // Before the listing, so `.baton/` is among what it binds.
    mkdirSync(dir, { recursive: true });
    const placeholder = join(dir, 'identity.json');
    if (!existsSync(placeholder)) writeFileSync(placeholder, '');
  } catch (error) {
    return { problem: `cannot create ${dir} (${(error as Error).message})` };
  }
  const set = protectedSet(
    request.rules,
    request.config,
    root,
    request.home,
    packageDir,
    request.mode.kind === 'bubblewrap',
  );
  if (typeof set === 'string') return { problem: set };
  const fields = ['baton-sandbox-1', request.mode.program, root];
  if (request.mode.kind === 'sandbox-exec') fields.push('P', seatbeltProfile(set));
  else {
    for (const path of new Set(set.binds)) fields.push('B', path);
    for (const path of set.known) fields.push('K', path);
    for (const path of set.outside) fields.push('N', path);
    for (const rule of set.rules) {
      fields.push('R', rule.id);
      if (rule.guard) fields.push('G', rule.guard);
      for (const [kind, tests] of [
        ['+', rule.paths],
        ['&', rule.also],
        ['!', rule.unless],
      ] as const)
        for (const { test, text } of tests) fields.push(kind, test, text);
    }
  }
  let spec: string;
  try {
    spec = writeSpec(dir, `${fields.join('\0')}\0`);
  } catch (error) {
    return {
      problem: `cannot write the sandbox spec under ${join(root, '.baton', 'sandbox')} (${(error as Error).message})`,
    };
  }
  const identity = JSON.stringify({ agent: input.agentId || 'main', session: input.sessionId, host: request.host });
  const call = ['\\command', '/bin/bash', runner, spec, identity, input.command]
    .map((w, i) => (i < 2 ? w : quote(w)))
    .join(' ');
  // Gemini CLI runs each call in a new shell, so there are no functions, aliases or folder to carry
  // over: the call alone, its fd 3 (the final folder) dropped. It refuses a command with $(...),
  // backticks, <(...) or >(...) outside single quotes (Gemini 0.61, measured): the outer text has
  // none, and a command that has them goes unwrapped, so that Gemini's own check sees it.
  if (request.host === 'gemini')
    return hasSubstitution(input.command)
      ? { problem: 'Gemini CLI refuses command substitution, which it cannot see inside the quoted sandbox call' }
      : { command: `${call} 3>/dev/null` };
  return {
    command:
      `{ __baton_defs=$(\\builtin declare -f; \\builtin alias -p; \\builtin shopt -p expand_aliases); [ \${#__baton_defs} -lt ${MAX_DEFS} ] || __baton_defs=; ` +
      `__baton_cwd=$(BATON_SANDBOX_DEFS=$__baton_defs ${call} 3>&1 1>&4 4>&-); __baton_status=$?; } 4>&1; ` +
      `\\builtin cd -- "\${__baton_cwd:-.}" 2>/dev/null; __baton_return() { \\builtin return "$1"; }; __baton_return "$__baton_status"`,
  };
}

/** The folder the running CLI was installed as (npm package, plugin folder or checkout): `<dir>/dist/cli.js`. */
export function installation(script: string | undefined): string | undefined {
  if (!script) return undefined;
  try {
    return dirname(dirname(realpathSync(script)));
  } catch {
    return undefined;
  }
}

/**
 * The spec under `<root>/.baton/sandbox/`, named by its content: the sandbox holds `.baton/`
 * read-only, so no command can forge the spec of a later call, and concurrent calls share or
 * ignore each other's. A spec already there is used only when it holds exactly this text: the
 * name is a fast non-cryptographic hash (node:crypto cost every wrapped call ~5 ms of CPU to load),
 * and whatever was planted at a name, or collides with it, is replaced, never trusted.
 */
function writeSpec(dir: string, text: string): string {
  const file = join(dir, `spec-${twoLaneFnv1a(text)}${text.length.toString(16).padStart(8, '0')}`);
  if (holds(file, text)) {
    const now = new Date();
    utimesSync(file, now, now);
    return file;
  }
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('spec-')) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > SPEC_AGE_MS) unlinkSync(join(dir, name));
    } catch {
      // another hook removed it
    }
  }
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  renameSync(temp, file);
  return file;
}

/** Gemini CLI 0.61's own test (detectBashSubstitution): `$(`, a backtick, `<(` or `>(` outside single quotes. */
export function hasSubstitution(command: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i++) {
    const char = command[i];
    const next = command[i + 1];
    if (char === "'" && !double) single = !single;
    else if (char === '"' && !single) double = !double;
    else if (single) continue;
    else if (char === '\\' && next !== undefined && (!double || '$`"\\\n'.includes(next))) i++;
    else if ((char === '$' && next === '(') || char === '`') return true;
    else if (!double && (char === '<' || char === '>') && next === '(') return true;
  }
  return false;
}

/** Whether `file` is a regular file (not a link) whose text is `text`. */
function holds(file: string, text: string): boolean {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size !== Buffer.byteLength(text)) return false;
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
