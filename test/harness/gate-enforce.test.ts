/**
 * Issue 18's enforcement corpus, run for real. Each case is one or more Bash tool calls: each call
 * goes to the built hook as the plugin runs it (`node dist/cli.js hook PreToolUse`, a Claude Code
 * payload on stdin); a deny stops the call, otherwise the command (or the hook's
 * `updatedInput.command`) runs as Claude Code runs it (`eval` in bash, stdin from /dev/null, the
 * cwd carried to the next call through `pwd -P`). Then every protected file of the project (test
 * files, the task document and its mirror, `.baton/`, the config, `.env`, lockfiles, the host's
 * settings) and the plugin bundle the hook runs from must be as before, byte for byte and inode,
 * mode, owner, link count and times; no new protected file may exist; baton must still read GREEN.
 * Controls must run and have their effect.
 *
 * The corpus runs three ways: without the hook (every attack must change something, so a case
 * that proves nothing is caught), with the sandbox (bubblewrap), and with the fallback
 * (BATON_SANDBOX=off: what is not provably harmless is denied, naming how to enable the sandbox).
 * Cases run a few at a time, each worker in a project of its own restored from a copy between
 * cases (same path, so nothing absolute goes stale).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { ATTACKS, CONTROLS, OPEN, type ControlCase, type EnforceCase, type Outcome } from './gate-enforce-corpus.js';

const PARALLEL = 4;
/** A runaway command (a `watch`, a shell waiting on a terminal) is stopped here; it is not a time limit on baton. */
const KILL_AFTER_MS = 30_000;
/** How long output is still read after a command exited while something else holds its pipes. */
const PIPE_GRACE_MS = 5000;
/** How long a background writer gets after its command returned. */
const SETTLE_MS = 2500;

type Mode = 'raw' | 'sandbox' | 'fallback';

interface World {
  root: string;
  project: string;
  pristine: string;
  plugin: string;
  scratch: string;
  home: string;
  bin: string;
  cwdFile: string;
}

// ---------------------------------------------------------------- the project

const TEST_A_V0 = 'def test_a():\n    assert True\n';
const TEST_A_V1 = 'def test_a():\n    assert app.x\n';
const TEST_A_V2 = 'def test_a():\n    assert app.x == 2\n';
const FILES: Record<string, string> = {
  'baton.config.json': JSON.stringify({ profile: 'eneo' }),
  'tests/test_a.py': TEST_A_V0,
  'tests/test_b.py': 'def test_b():\n    pass\n',
  'tests/conftest.py': 'import sys\nsys.path.insert(0, "src")\n',
  'src/app.py': 'x = 0\n',
  'script.py': "open('src/out.txt', 'w').write('out\\n')\n",
  '.gitignore': '.env\n',
  '.env': 'SECRET=1\n',
  '.env.example': 'SECRET=\n',
  'uv.lock': 'version = 1\n',
  '.claude/ratchet/coverage.json': '{}\n',
};

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = cleanEnv()): string {
  const r = spawnSync('bash', ['-ec', command], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`setup failed: ${command}: ${r.stderr}`);
  return r.stdout;
}

/** The hook runs from a copy of the built plugin outside the project, as an installed plugin does. */
function copyPlugin(to: string): void {
  rmSync(to, { recursive: true, force: true });
  const plugin = join(ROOT, 'plugin');
  cpSync(plugin, to, {
    recursive: true,
    filter: (src) =>
      !src.endsWith('.map') &&
      !relative(plugin, src)
        .split('/')
        .some((part) => part === 'types' || part === '.cache'),
  });
}

function buildWorld(): World {
  const root = tempDir('baton-enforce-');
  const w: World = {
    root,
    project: join(root, 'p'),
    pristine: join(root, 'pristine'),
    plugin: join(root, 'plugin'),
    scratch: join(root, 'scratch'),
    home: join(root, 'home'),
    bin: join(root, 'bin'),
    cwdFile: join(root, 'cwd'),
  };
  copyPlugin(w.plugin);
  mkdirSync(w.bin);
  writeFileSync(join(w.bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${w.plugin}/dist/cli.js" "$@"\n`);
  chmodSync(join(w.bin, 'baton'), 0o755);
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(w.project, path, '..'), { recursive: true });
    writeFileSync(join(w.project, path), text);
  }
  const p = w.project;
  const git = 'git -c user.email=t@t -c user.name=t';
  sh(p, `git init -q -b main && ${git} add -A && ${git} commit -qm v0`);
  writeFileSync(join(p, 'tests/test_a.py'), TEST_A_V1);
  sh(
    p,
    `${git} commit -qam v1 && ${git} checkout -qb feature && echo '# feature' >> tests/test_b.py && ${git} commit -qam feature && git checkout -q main`,
  );
  writeFileSync(join(p, 'tests/test_a.py'), TEST_A_V2);
  writeFileSync(join(p, 'src/app.py'), 'x = 1\n');
  const env = batonEnv(w);
  const batonCli = (args: string) => sh(p, `"${process.execPath}" "${w.plugin}/dist/cli.js" ${args}`, env);
  batonCli('task init -- demo deep 4 none appends');
  batonCli('task phase-set GREEN');
  sh(p, 'ln -s tests lnk');
  sh(root, `cp -a p pristine && mkdir -p scratch home`);
  return w;
}

function batonEnv(w: World, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: w.home, CLAUDE_PROJECT_DIR: w.project, ...extra });
}

function bashEnv(w: World): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: w.home, TMPDIR: w.scratch, PATH: `${w.bin}:${process.env.PATH ?? ''}`, CORPUS_MARK: 'kept' });
}

// ---------------------------------------------------------------- what is protected

const TEST = [/(^|\/)(tests|__tests__)\//, /(^|\/)test_[^/]*\.py$/, /_test\.py$/, /\.(test|spec)\.tsx?$/];
const ENV = /(^|\/)\.env(\.[^/]*)?$/;
const ENV_ALLOWED = /(^|\/)\.env\.(example|sample|template)$/;
// Lockfiles and ratchet baselines are left out: package managers and commit hooks a command runs
// rewrite them legitimately, so they stay with the parser (docs/gates.md), not the OS.
const STATE = [/^\.claude\/state(\/|$)/, /(^|\/)\.baton(\/|$)/, /^\.claude\/settings(\.local)?\.json$/];
/** Folders whose own identity, mode and entries are protected (a rename or chmod of the folder). */
const PROTECTED_DIRS = ['tests', '.claude/state', '.claude/state/.baton', '.claude/state/.locks'];
/** baton's own named locks come and go with `baton task lock`/`unlock`, which any phase allows. */
const OWN_LOCK = /^\.claude\/state\/\.locks\/[A-Za-z0-9_-]+\.lock$/;

function isProtected(rel: string): boolean {
  if (rel === 'baton.config.json') return true;
  if (OWN_LOCK.test(rel)) return false;
  if (TEST.some((re) => re.test(rel))) return true;
  if (ENV.test(rel) && !ENV_ALLOWED.test(rel)) return true;
  return STATE.some((re) => re.test(rel));
}

/**
 * A folder is described by what it is (inode, mode, owner): its entries are described one by one,
 * and one that appears only during the call and is gone after it (moved aside) is not a change.
 */
function describeEntry(path: string, withHash: boolean): string {
  const s = lstatSync(path, { bigint: true });
  const kind = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  let text = `${kind} ino=${s.ino} mode=${s.mode.toString(8)} uid=${s.uid} gid=${s.gid}`;
  if (kind !== 'dir') text += ` nlink=${s.nlink} ctime=${s.ctimeNs} mtime=${s.mtimeNs} size=${s.size}`;
  if (kind === 'link') text += ` -> ${readlinkSync(path)}`;
  if (kind === 'file' && withHash)
    text += ` sha=${createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16)}`;
  return text;
}

/** Every protected entry of the project, and every file of the plugin bundle, described. */
function snapshot(w: World): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, visit: (rel: string, path: string) => void, base: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const rel = relative(base, path);
      // `.git` is no rule's, nor are a dependency's tests; the sandbox's specs and its quarantine (where entries that appeared
      // under a protected name are moved) are baton's own, written by the hook and its runner.
      if (rel === '.git' || rel === '.baton/sandbox' || rel === '.baton/quarantine' || name === 'node_modules')
        continue;
      visit(rel, path);
      try {
        if (lstatSync(path).isDirectory()) walk(path, visit, base);
      } catch {
        // vanished while walking (a background writer): the next snapshot sees it
      }
    }
  };
  walk(
    w.project,
    (rel, path) => {
      try {
        if (PROTECTED_DIRS.includes(rel)) out.set(rel, describeEntry(path, false));
        else if (isProtected(rel) && !lstatSync(path).isDirectory()) out.set(rel, describeEntry(path, true));
      } catch {
        // vanished while walking
      }
    },
    w.project,
  );
  for (const dir of PROTECTED_DIRS) if (!out.has(dir)) out.set(dir, 'missing');
  walk(
    w.plugin,
    (rel, path) => {
      // baton's V8 code cache beside the bundle is derived data that any first run writes.
      if (rel.split('/').includes('.cache')) return;
      try {
        if (!lstatSync(path).isDirectory()) out.set(`plugin:${rel}`, describeEntry(path, false));
      } catch {
        // vanished while walking
      }
    },
    w.plugin,
  );
  return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const [rel, was] of before) {
    const now = after.get(rel);
    if (now === undefined) diffs.push(`${rel} removed`);
    else if (now !== was) diffs.push(`${rel} changed (${changedFields(was, now)})`);
  }
  for (const rel of after.keys()) if (!before.has(rel)) diffs.push(`${rel} created`);
  return diffs;
}

function changedFields(was: string, now: string): string {
  const a = was.split(' ');
  const b = now.split(' ');
  return (
    b
      .filter((field, i) => field !== a[i])
      .map((f) => f.split('=')[0])
      .join(',') || 'kind'
  );
}

// ---------------------------------------------------------------- running a call

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess, input?: string, killAfter = KILL_AFTER_MS): Promise<Ran> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let code: number | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    };
    const killer = setTimeout(() => {
      // As a host ends a call at its timeout: TERM to the process group, KILL a second later.
      if (child.pid) signalGroup(child.pid, 'SIGTERM');
      setTimeout(() => child.pid && killGroup(child.pid), 1000);
      stderr += `\n[killed after ${killAfter} ms]`;
    }, killAfter);
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      stderr += String(error);
      finish();
    });
    // A background child may hold the pipes open: after the exit, the output is read until the
    // pipes close or a grace period ends (then the call is over, as in Claude Code).
    child.on('exit', (c, signal) => {
      code = c ?? (signal ? 128 : null);
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on('close', finish);
    if (input !== undefined) child.stdin?.end(input);
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function killGroup(pid: number): void {
  signalGroup(pid, 'SIGKILL');
}

/** Processes the case started that are still inside the world (their cwd or root there): stopped by id. */
function killStragglers(w: World): void {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    for (const link of ['cwd', 'root']) {
      try {
        if (readlinkSync(`/proc/${name}/${link}`).startsWith(`${w.root}/`)) {
          process.kill(Number(name), 'SIGKILL');
          break;
        }
      } catch {
        // gone, or not ours to read
      }
    }
  }
}

function hook(w: World, mode: Mode, command: string, cwd: string): Promise<Ran> {
  const payload = {
    session_id: 'enforce-corpus',
    transcript_path: join(w.root, 'transcript.jsonl'),
    cwd,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command, description: 'corpus' },
    tool_use_id: 'toolu_corpus',
  };
  const env = batonEnv(w, mode === 'fallback' ? { BATON_SANDBOX: 'off' } : {});
  const child = spawn(process.execPath, [join(w.plugin, 'dist', 'cli.js'), 'hook', 'PreToolUse'], {
    cwd: w.project,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return collect(child, JSON.stringify(payload));
}

interface HookAnswer {
  denied: boolean;
  reason: string;
  command?: string;
}

/** Claude Code's reading of a PreToolUse answer: exit 2 blocks, other failures let the call run. */
function answer(r: Ran): HookAnswer {
  if (r.code === 2) return { denied: true, reason: r.stderr };
  if (r.code !== 0 || r.stdout.trim() === '') return { denied: false, reason: r.stderr };
  let out: {
    hookSpecificOutput?: {
      permissionDecision?: string;
      permissionDecisionReason?: string;
      updatedInput?: { command?: unknown };
    };
  };
  try {
    out = JSON.parse(r.stdout) as typeof out;
  } catch {
    return { denied: false, reason: `unparsed hook output: ${r.stdout}` };
  }
  const h = out.hookSpecificOutput ?? {};
  const command = typeof h.updatedInput?.command === 'string' ? h.updatedInput.command : undefined;
  return { denied: h.permissionDecision === 'deny', reason: h.permissionDecisionReason ?? '', command };
}

async function runBash(
  w: World,
  command: string,
  cwd: string,
  killAfter?: number,
): Promise<{ ran: Ran; pid: number | undefined; cwd: string }> {
  rmSync(w.cwdFile, { force: true });
  const child = spawn('bash', ['-c', 'eval "$1" < /dev/null && pwd -P >| "$2"', 'bash', command, w.cwdFile], {
    cwd,
    env: bashEnv(w),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const ran = await collect(child, undefined, killAfter);
  let next = cwd;
  try {
    const text = readFileSync(w.cwdFile, 'utf8').trim();
    if (text && existsSync(text)) next = text;
  } catch {
    // the call failed: Claude Code keeps the cwd
  }
  return { ran, pid: child.pid, cwd: next };
}

async function phase(w: World): Promise<string> {
  const child = spawn(process.execPath, [join(w.plugin, 'dist', 'cli.js'), 'task', 'get', '.tdd_phase'], {
    cwd: w.project,
    env: batonEnv(w),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = await collect(child);
  return r.code === 0 ? r.stdout.trim() : `exit ${r.code}: ${r.stderr.trim()}`;
}

/** Back to the pristine project: mounts under the world undone, immutable flags cleared, a fresh copy (`cp -a` keeps its hard links). */
function restore(w: World, pluginChanged: boolean): void {
  killStragglers(w);
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((m) => m.startsWith(`${w.root}/`))
    .sort()
    .reverse();
  for (const m of mounts) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
  for (const dir of [w.project, w.scratch, w.home]) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      spawnSync('chattr', ['-R', '-i', '-a', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const copy = spawnSync('cp', ['-a', w.pristine, w.project], { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`restore failed: ${copy.stderr}`);
  mkdirSync(w.scratch);
  mkdirSync(w.home);
  if (pluginChanged) copyPlugin(w.plugin);
}

interface CaseResult {
  c: EnforceCase;
  outcome: Outcome;
  diffs: string[];
  phase: string | undefined;
  anyRan: boolean;
}

async function runCase(w: World, mode: Mode, c: EnforceCase): Promise<CaseResult> {
  const expand = (template: string) =>
    template.replaceAll('@ROOT@', w.project).replaceAll('@T@', w.scratch).replaceAll('@PLUGIN@', w.plugin);
  if (c.setup) sh(w.project, expand(c.setup), bashEnv(w));
  const before = snapshot(w);
  const calls: Outcome['calls'] = [];
  const groups: number[] = [];
  let cwd = w.project;
  for (const template of c.calls) {
    const text = expand(template);
    let command = text;
    if (mode !== 'raw') {
      const a = answer(await hook(w, mode, text, cwd));
      if (a.denied) {
        calls.push({ denied: true, reason: a.reason, code: null, stdout: '', stderr: '' });
        continue;
      }
      command = a.command ?? text;
    }
    const r = await runBash(w, command, cwd, c.killAfter);
    if (r.pid) groups.push(r.pid);
    cwd = r.cwd;
    calls.push({ denied: false, reason: '', ...r.ran });
  }
  if (c.settle) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const after = snapshot(w);
  const anyRan = calls.some((call) => !call.denied);
  const outcome: Outcome = {
    calls,
    read: (path) => {
      try {
        return readFileSync(join(w.project, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    sh: (command) => spawnSync('bash', ['-c', command], { cwd: w.project, env: bashEnv(w), encoding: 'utf8' }).stdout,
  };
  const result: CaseResult = {
    c,
    outcome,
    diffs: differences(before, after),
    phase: anyRan && mode !== 'raw' ? await phase(w) : undefined,
    anyRan,
  };
  for (const pid of groups) killGroup(pid);
  return result;
}

/** Runs cases over the worlds, a worker each; `check` turns a result into a failure line or nothing. */
async function runAll<C extends EnforceCase>(
  worlds: World[],
  mode: Mode,
  cases: readonly C[],
  check: (c: C, r: CaseResult) => string | undefined,
): Promise<string[]> {
  const failures: string[] = [];
  const only = process.env.CORPUS_ONLY;
  if (only) cases = cases.filter((c) => c.calls.join('\n').includes(only));
  let next = 0;
  await Promise.all(
    worlds.map(async (w) => {
      while (next < cases.length) {
        const c = cases[next++] as C;
        const r = await runCase(w, mode, c);
        const problem = check(c, r);
        if (problem)
          failures.push(`[${c.what}] ${JSON.stringify(c.calls.length === 1 ? c.calls[0] : c.calls)}: ${problem}`);
        restore(
          w,
          r.diffs.some((d) => d.startsWith('plugin:')),
        );
      }
    }),
  );
  return failures.sort();
}

function hasBwrap(): boolean {
  return spawnSync('sh', ['-c', 'command -v bwrap'], { stdio: 'ignore' }).status === 0;
}

function attackProblem(r: CaseResult): string | undefined {
  const problems = [...r.diffs];
  if (r.phase !== undefined && r.phase !== 'GREEN') problems.push(`baton reads the phase as ${r.phase}`);
  return problems.length ? problems.join('; ') : undefined;
}

function controlProblem(mode: Mode, c: ControlCase, r: CaseResult): string | undefined {
  const denied = r.outcome.calls.find((call) => call.denied);
  if (denied) {
    if (mode === 'fallback' && c.fallback === 'sandbox') {
      return /sandbox|bubblewrap|bwrap/i.test(denied.reason)
        ? undefined
        : `denied without naming the sandbox: ${denied.reason}`;
    }
    return `denied: ${denied.reason.split('\n')[0]}`;
  }
  const effect = c.effect(r.outcome);
  if (effect)
    return `${effect} (stderr: ${r.outcome.calls
      .map((call) => call.stderr.trim())
      .join(' | ')
      .slice(0, 300)})`;
  if (r.diffs.length) return `changed protected files: ${r.diffs.join('; ')}`;
  if (r.phase !== undefined && r.phase !== 'GREEN') return `baton reads the phase as ${r.phase}`;
  return undefined;
}

describe('the enforcement corpus: attacks and controls run for real after the hook', () => {
  let worlds: World[] = [];
  before(() => {
    worlds = Array.from({ length: PARALLEL }, buildWorld);
  });
  after(() => {
    for (const w of worlds) {
      killStragglers(w);
      spawnSync('chattr', ['-R', '-i', '-a', w.root], { stdio: 'ignore' });
      rmSync(w.root, { recursive: true, force: true });
    }
  });

  it(
    `every one of the ${ATTACKS.length + OPEN.length} attacks changes a protected file when run without the hook`,
    { timeout: 900_000 },
    async () => {
      assert.ok(ATTACKS.length >= 150, `only ${ATTACKS.length} attacks`);
      const failures = await runAll(worlds, 'raw', [...ATTACKS, ...OPEN], (_c, r) =>
        r.diffs.length ? undefined : 'changed nothing: the case proves nothing',
      );
      assert.deepEqual(failures, []);
    },
  );

  for (const mode of ['sandbox', 'fallback'] as const) {
    it(`${mode}: none of the ${ATTACKS.length} attacks changes a protected file`, { timeout: 900_000 }, async (t) => {
      if (mode === 'sandbox') assert.ok(hasBwrap(), 'the sandboxed run needs bubblewrap: apt-get install bubblewrap');
      const failures = await runAll(worlds, mode, ATTACKS, (_c, r) => attackProblem(r));
      // The open findings are run and reported, not asserted (gate-enforce-corpus.ts says why each is open).
      const open = await runAll(worlds, mode, OPEN, (_c, r) => attackProblem(r) ?? 'held now: move it into ATTACKS');
      for (const line of open) t.diagnostic(`open finding: ${line}`);
      assert.deepEqual(failures, []);
    });

    it(`${mode}: all ${CONTROLS.length} controls run and have their effect`, { timeout: 900_000 }, async () => {
      assert.ok(CONTROLS.length >= 40, `only ${CONTROLS.length} controls`);
      const failures = await runAll(worlds, mode, CONTROLS, (c, r) => controlProblem(mode, c, r));
      assert.deepEqual(failures, []);
    });
  }
});
