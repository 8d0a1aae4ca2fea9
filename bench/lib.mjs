// Shared timing helpers for the benchmark suites. Each suite in bench/suites/ exports
// `default async function (lib)` returning rows { name, baton, reference, unit, note }.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BATON = join(ROOT, 'bin', 'baton.js');
/**
 * The bash+jq reference lives outside the repo (the comparison is optional): BATON_BENCH_REFERENCE,
 * else shared/bench/reference-state.sh beside the checkout, or beside the main checkout when this
 * is a git worktree elsewhere (whose own parent holds no shared/).
 */
export const REFERENCE = process.env.BATON_BENCH_REFERENCE ?? findReference();

function findReference() {
  const beside = (root) => join(root, '..', 'shared', 'bench', 'reference-state.sh');
  const candidates = [beside(ROOT)];
  // The main checkout's .git (a worktree's own .git is a file naming it).
  const common = spawnSync('git', ['rev-parse', '--git-common-dir'], { cwd: ROOT, encoding: 'utf8' });
  if (common.status === 0 && common.stdout.trim())
    candidates.push(beside(dirname(resolve(ROOT, common.stdout.trim()))));
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}

/** Timing env: NODE_EXTRA_CA_CERTS adds ~70 ms to every Node start on this machine only. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

const made = [];
// Removed when the bench process exits, however it ends, so a run leaves nothing in the temp folder.
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'baton-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * A project on the eneo profile (with `config` over it), its task in GREEN so test files are
 * frozen: what the hook suites judge. On a store the config names, migrated first.
 */
export function greenProject(prefix, config = {}) {
  const dir = tempDir(prefix);
  const env = benchEnv({ BATON_ROOT: dir, BATON_DEBUG_LOG: join(dir, 'debug.log') });
  writeFileSync(join(dir, 'baton.config.json'), `${JSON.stringify({ profile: 'eneo', ...config })}\n`);
  const cli = (args) => {
    const r = spawnSync(process.execPath, [BATON, ...args], { cwd: dir, env });
    if (r.status !== 0) throw new Error(`baton ${args.join(' ')} failed: ${r.stderr}`);
  };
  if (config.store) cli(['store', 'migrate']);
  cli(['task', 'init', '--', 'bench', 'deep', '4', 'none', 'none']);
  cli(['task', 'phase-set', 'GREEN']);
  return { dir, env };
}

/** The PreToolUse payload of a Write to `path` in `dir`, as Claude Code sends it. */
export function writePayload(dir, path) {
  return JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, path), content: 'x' },
  });
}

/** Runs argv `runs` times (after `warmup` runs) and returns the median wall time in ms. */
export function timeProcess(argv, options = {}) {
  return timeProcessCpu(argv, options).ms;
}

const hasPerf = spawnSync('perf', ['--version']).status === 0;
const perfFile = join(mkdtempSync(join(tmpdir(), 'baton-bench-perf-')), 'stat.txt');
made.push(dirname(perfFile));

const perfPaths = new Map();
/**
 * env as a command timed here sees it: perf stat puts its own folders first on PATH. A server the
 * timed command asks is started with it, as a session's server has its hooks' environment: baton
 * serve answers a shell client only when it judges with the client's environment (docs/serve.md),
 * and would otherwise leave every timed hook to the in-process fallback.
 */
export function timedEnv(env) {
  if (!hasPerf) return env;
  const path = env.PATH ?? '';
  if (!perfPaths.has(path)) {
    const seen = spawnSync('perf', ['stat', '-x,', '-o', perfFile, 'printenv', 'PATH'], { env, encoding: 'utf8' });
    perfPaths.set(path, seen.status === 0 ? seen.stdout.replace(/\n$/, '') : path);
  }
  return { ...env, PATH: perfPaths.get(path) };
}

/**
 * Like timeProcess, with the child's CPU time too (`perf stat` task-clock: user + system of every
 * thread; null without perf): under load the wall time is mostly waiting for a core, the CPU time
 * is what the process itself costs. Medians of each. Under perf, the wall time is perf's own
 * duration_time, from the command's exec to its exit: perf's start (10-40 ms here, more than many
 * a command it times) is no part of what the command costs, and timed from outside it was in both
 * columns of every row, pulling each ratio towards 1.
 */
export function timeProcessCpu(argv, { runs = 20, warmup = 3, cwd, env = benchEnv(), input, before } = {}) {
  const times = [];
  const cpus = [];
  const command = hasPerf ? ['perf', 'stat', '-x,', '-e', 'task-clock,duration_time', '-o', perfFile, ...argv] : argv;
  for (let i = 0; i < warmup + runs; i++) {
    before?.(i);
    const start = process.hrtime.bigint();
    const result = spawnSync(command[0], command.slice(1), {
      cwd,
      env,
      input,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0 && result.status !== 2) {
      throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
    }
    if (i < warmup) continue;
    const stat = hasPerf ? readFileSync(perfFile, 'utf8') : '';
    const duration = /^(\d+),ns,duration_time/m.exec(stat)?.[1];
    times.push(duration === undefined ? ms : Number(duration) / 1e6);
    if (hasPerf) cpus.push(Number(/^([\d.]+),msec,task-clock/m.exec(stat)?.[1]));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { ms: median(times), cpu: hasPerf ? median(cpus) : null };
}

/**
 * Times several commands side by side: each round runs every one once, in a shuffled order, so a
 * loaded machine weighs on all alike. Returns { ms, cpu } per name, as timeProcessCpu.
 */
export function timeInterleaved(commands, { runs = 20, warmup = 2, ...options } = {}) {
  const names = Object.keys(commands);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    const order = names.map((name) => [Math.random(), name]).sort((a, b) => a[0] - b[0]);
    for (const [, name] of order) {
      const { argv, ...own } = commands[name];
      const one = timeProcessCpu(argv, { runs: 1, warmup: 0, ...options, ...own });
      if (round >= warmup) samples[name].push(one);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        ms: median(samples[name].map((s) => s.ms)),
        cpu: hasPerf ? median(samples[name].map((s) => s.cpu)) : null,
      },
    ]),
  );
}

const hasCallgrind =
  spawnSync('valgrind', ['--version']).status === 0 && spawnSync('setarch', ['-R', 'true']).status === 0;

/** Why instructions are not counted on this machine, or undefined when they are. */
export const noCallgrind = hasCallgrind
  ? undefined
  : 'instructions not counted: valgrind (callgrind) or setarch not found; install valgrind to see them';

/**
 * The instructions (millions) a command executes, counted by valgrind's callgrind: the median of
 * `runs`, after one run outside valgrind with the same flags (it writes the code caches a first
 * run compiles without). CPU time on a shared machine moves run to run by more than the gaps the
 * goals name (the reference's by a fifth); an instruction count moves by under 0.1%, so a row
 * shows both. Counted alike for every command: ASLR off (setarch -R), and Node with a fixed hash
 * seed (--hash-seed=1: with a random one a bare start counts 83-92 M, with it the same every
 * time). `children`: every process the command starts counts too (the reference's bash runs jq,
 * flock, mktemp, date and mv). Null when valgrind is absent (noCallgrind says so).
 */
export function countInstructions(argv, { runs = 3, cwd, env = benchEnv(), children = false } = {}) {
  if (!hasCallgrind) return null;
  const command = argv[0] === process.execPath ? [argv[0], '--hash-seed=1', ...argv.slice(1)] : argv;
  spawnSync(command[0], command.slice(1), { cwd, env, stdio: 'ignore' });
  const counts = [];
  for (let i = 0; i < runs; i++) {
    // A log file a process (%p): a process's stderr may be /dev/null (the reference's jq has 2>/dev/null).
    const logs = tempDir('baton-bench-callgrind-');
    const result = spawnSync(
      'setarch',
      [
        '-R',
        'valgrind',
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        `--log-file=${join(logs, '%p')}`,
        ...(children ? ['--trace-children=yes'] : []),
        ...command,
      ],
      { cwd, env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // One "Collected" line a process: the command's, and with `children` each of theirs.
    const collected = readdirSync(logs).map((name) => /Collected : (\d+)/.exec(readFileSync(join(logs, name), 'utf8')));
    rmSync(logs, { recursive: true, force: true });
    if (result.status !== 0 || collected.length === 0 || collected.includes(null)) {
      throw new Error(`${argv.join(' ')} under callgrind exited ${result.status}: ${result.stderr.slice(-500)}`);
    }
    counts.push(collected.reduce((sum, match) => sum + Number(match[1]), 0) / 1e6);
  }
  return counts.sort((a, b) => a - b)[Math.floor(counts.length / 2)];
}

/** Starts `count` copies of argv at once; resolves with the wall time and exit codes. */
export async function timeParallel(argvFor, count, { cwd, env = benchEnv() } = {}) {
  const start = process.hrtime.bigint();
  const codes = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise((resolve) => {
          const argv = argvFor(i);
          const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: 'ignore' });
          child.on('close', (code) => resolve(code));
        }),
    ),
  );
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, codes };
}

export function hasReference() {
  try {
    return spawnSync('test', ['-x', REFERENCE]).status === 0;
  } catch {
    return false;
  }
}
