// Run-bus rows: `baton run set` and `baton phase done` processes against the bash reference
// (`reference-state.sh update`) doing the equivalent jq edit on an equivalent document, plus
// parallel `phase done` from many processes (wall time and entries lost).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RUNS = 20;
const WARMUP = 3;

/** Like lib.timeProcess, but argv may change per run (each `phase done` needs its own phase). */
function timeEach(argvFor, { cwd, env }) {
  const times = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const argv = argvFor(i);
    const start = process.hrtime.bigint();
    const result = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const phaseKey = (i) => `${i}-worker`;
const DONE_EXPR =
  '.phases[$p] |= (.status = "done" | .outputs.result = $o | .evidence += [$e] | .finished_at = $__now)';

export default async function run(lib) {
  const rows = [];
  const dir = lib.tempDir('baton-bench-run-');
  mkdirSync(join(dir, '.git'));
  const env = lib.benchEnv();
  delete env.BATON_ROOT;
  delete env.CLAUDE_PROJECT_DIR;
  const node = process.execPath;
  const reference = lib.hasReference();
  const cli = (...args) => [node, lib.BATON, ...args];
  const phases = 2 * (WARMUP + RUNS) + 40;
  const must = (argv) => {
    const r = spawnSync(argv[0], argv.slice(1), { cwd: dir, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
  };
  must(cli('run', 'init', 'bench'));
  // Phases in progress for `phase done` to finish, started the sanctioned way (a run's phases are
  // sealed to `run init`/`phase`/`gate`), not timed.
  for (let i = 0; i < phases; i++) must(cli('phase', 'start', 'bench', phaseKey(i), '--agent', `a${i}`));
  const ref = join(dir, 'ref.json');
  writeFileSync(ref, readFileSync(join(dir, '.ai_log', 'session-bench.json')));

  rows.push({
    name: 'run set: one process (user_request = text)',
    baton: lib.timeProcess(cli('run', 'set', 'bench', 'user_request', 'Gate the member blog'), {
      cwd: dir,
      env,
      runs: RUNS,
      warmup: WARMUP,
    }),
    reference: reference
      ? lib.timeProcess(
          ['bash', lib.REFERENCE, 'update', ref, '.[$k] = $v', 'k', 'user_request', 'v', 'Gate the member blog'],
          { cwd: dir, env, runs: RUNS, warmup: WARMUP },
        )
      : null,
    unit: 'ms',
    note: 'median of 20 processes; baton fsyncs, the reference does not',
  });
  rows.push({
    name: 'phase done: one process (output + evidence)',
    baton: timeEach(
      (i) =>
        cli('phase', 'done', 'bench', phaseKey(i), '--output', 'result=.ai_log/r.md', '--evidence', '.ai_log/e.log'),
      { cwd: dir, env },
    ),
    reference: reference
      ? timeEach(
          (i) => [
            'bash',
            lib.REFERENCE,
            'update',
            ref,
            DONE_EXPR,
            'p',
            phaseKey(i),
            'o',
            '.ai_log/r.md',
            'e',
            '.ai_log/e.log',
          ],
          { cwd: dir, env },
        )
      : null,
    unit: 'ms',
    note: 'median of 20 processes, each finishing its own phase',
  });

  const offset = WARMUP + RUNS;
  const n = 20;
  const par = await lib.timeParallel(
    (i) => cli('phase', 'done', 'bench', phaseKey(offset + i), '--output', `r${i}=x`),
    n,
    { cwd: dir, env },
  );
  const after = JSON.parse(readFileSync(join(dir, '.ai_log', 'session-bench.json'), 'utf8'));
  const lost = Array.from({ length: n }, (_, i) => after.phases[phaseKey(offset + i)]).filter(
    (e) => e.status !== 'done',
  ).length;
  let refPar = null;
  if (reference) {
    refPar = await lib.timeParallel(
      (i) => ['bash', lib.REFERENCE, 'update', ref, DONE_EXPR, 'p', phaseKey(offset + i), 'o', 'x', 'e', 'y'],
      n,
      { cwd: dir, env },
    );
    const refDoc = JSON.parse(readFileSync(ref, 'utf8'));
    refPar.lost = Array.from({ length: n }, (_, i) => refDoc.phases[phaseKey(offset + i)]).filter(
      (e) => e.status !== 'done',
    ).length;
  }
  rows.push({
    name: `${n} parallel phase done processes (wall time)`,
    baton: par.ms,
    reference: refPar?.ms ?? null,
    unit: 'ms',
    note: `lost: baton ${lost}${refPar ? `, reference ${refPar.lost}` : ''}; exit codes ${[...new Set(par.codes)].join(',')}`,
  });
  return rows;
}
