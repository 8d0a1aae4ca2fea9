#!/usr/bin/env node
// Start-up cost of the CLI paths a hook or a script pays on every call, for two or more builds
// (and Node binaries) measured interleaved in one run: on a loaded machine only figures taken
// side by side compare. Each round runs every case once per variant, in a shuffled order.
//
//   node bench/startup.mjs [--runs N] [--node PATH]... ROOT...
//
// ROOT is a package folder holding bin/baton.js and its dist/ (this checkout is `.`; copy a
// build elsewhere to compare it). Prints the median wall and CPU time of each case per variant;
// the CPU time comes from `perf stat` (Linux perf), which must be on PATH.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as lib from './lib.mjs';

const args = process.argv.slice(2);
const nodes = [];
const roots = [];
let runs = 30;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--node') nodes.push(args[++i]);
  else roots.push(resolve(args[i]));
}
if (roots.length === 0) roots.push(lib.ROOT);
if (nodes.length === 0) nodes.push(process.execPath);
const variants = nodes.flatMap((node) => roots.map((root) => ({ node, bin: join(root, 'bin', 'baton.js') })));
const version = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
const label = (v) =>
  `${nodes.length > 1 ? `${version(v.node)} ` : ''}${roots.length > 1 ? v.bin.slice(0, -'/bin/baton.js'.length) : ''}`;

const dir = lib.tempDir('baton-bench-startup-');
const env = lib.benchEnv({ BATON_ROOT: dir, TMPDIR: dir });
delete env.CLAUDE_PROJECT_DIR;
const setup = (argv, cwd = dir) => {
  const r = spawnSync(process.execPath, [variants[0].bin, ...argv], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`baton ${argv.join(' ')}: ${r.stderr}`);
};
writeFileSync(join(dir, 'baton.config.json'), '{"profile": "eneo"}\n');
setup(['task', 'init', '--', 'bench', 'deep', '4', 'none', 'none']);
setup(['task', 'phase-set', 'GREEN']);
const doc = join(dir, 'doc.json');
setup(['init', doc, '--schema', 'eneo-task', '--arg', 'slug', 'bench', '--arg', 'lane', 'deep']);
const git = (...a) => spawnSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', ...a], { cwd: dir });
git('init', '-q', '-b', 'main');
git('add', 'doc.json');
git('commit', '-qm', 'init');
mkdirSync(join(dir, 'src'), { recursive: true });

const tool = (tool_name, tool_input) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name, cwd: dir, tool_input });
const cases = [
  { name: '--version', argv: ['--version'] },
  { name: 'get (small task doc)', argv: ['get', doc, '.slug'] },
  { name: 'update (small task doc)', argv: ['update', doc, '.counter += 1'] },
  { name: 'hook SessionEnd (ignored event)', argv: ['hook', 'SessionEnd'], input: '{"reason":"other"}' },
  {
    name: 'hook PreToolUse Write (allowed)',
    argv: ['hook', 'PreToolUse'],
    input: tool('Write', { file_path: join(dir, 'src', 'app.py'), content: 'x' }),
  },
  {
    name: 'hook PreToolUse Bash (allowed, parsed)',
    argv: ['hook', 'PreToolUse'],
    input: tool('Bash', { command: 'cd src && npm test > log.txt 2>&1 && git commit -m "steering committee"' }),
  },
  {
    name: 'statusline (git cache warm)',
    argv: ['statusline'],
    input: JSON.stringify({
      session_id: 'bench',
      model: { display_name: 'Opus' },
      workspace: { current_dir: dir, project_dir: dir },
      context_window: { used_percentage: 71.5 },
      cost: { total_duration_ms: 725000, total_cost_usd: 1.5 },
    }),
  },
];

// CPU time (perf stat's task-clock: every thread of the process) next to wall time: under load
// the wall time is mostly waiting for a core, the CPU time is what the process itself costs.
const timeFile = join(dir, 'perf.txt');
const once = (v, c) => {
  const start = process.hrtime.bigint();
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '-o', timeFile, v.node, v.bin, ...c.argv], {
    cwd: dir,
    env,
    input: c.input,
    stdio: [c.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${label(v)} baton ${c.argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = Number(/^([\d.]+),msec,task-clock/m.exec(readFileSync(timeFile, 'utf8'))?.[1]);
  return { ms, cpu };
};
const shuffle = (a) =>
  a
    .map((x) => [Math.random(), x])
    .sort((p, q) => p[0] - q[0])
    .map(([, x]) => x);
const times = variants.map(() => cases.map(() => []));
// Warm-up: fills each build's code cache and the status line's git cache.
for (let w = 0; w < 3; w++) for (const v of variants) for (const c of cases) once(v, c);
for (let r = 0; r < runs; r++)
  for (const [ci, c] of cases.entries())
    for (const vi of shuffle([...variants.keys()])) times[vi][ci].push(once(variants[vi], c));

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const both = (a) => `${median(a.map((t) => t.ms)).toFixed(1)} / ${median(a.map((t) => t.cpu)).toFixed(1)}`;
console.log(
  `start-up, median of ${runs} interleaved runs, wall / CPU ms, NODE_EXTRA_CA_CERTS unset, ${new Date().toISOString()}`,
);
variants.forEach((v, i) => console.log(`  [${i}] ${label(v) || v.bin}`));
const pad = (s, n) => String(s).padEnd(n);
console.log(pad('case', 42) + variants.map((_, i) => pad(`[${i}]`, 15)).join(''));
const bare = variants.map((v) =>
  Array.from({ length: runs }, () => once({ node: v.node, bin: '-e' }, { argv: ['0'] })),
);
cases.forEach((c, ci) => console.log(pad(c.name, 42) + times.map((t) => pad(both(t[ci]), 15)).join('')));
console.log(pad('bare node -e 0 (floor)', 42) + bare.map((b) => pad(both(b), 15)).join(''));
