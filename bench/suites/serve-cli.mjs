// CLI commands answered by a running `baton serve` (docs/serve.md, "CLI commands through the
// server"): `update` and `get` processes handed to the server, side by side with the same commands
// run in process (a project with no server), the bash+jq reference and a bare Node start; and 50
// parallel updates through the server. A forwarded command's CPU is the client's (perf) plus what
// the server spent meanwhile (its threads' /proc schedstat, in ns): honest, as the work moved there.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { TASK } from './core.mjs';

const RUNS = 20;
const WARMUP = 2;

export default async function serveCli(lib) {
  const node = process.execPath;
  const reference = lib.hasReference();
  const served = project(lib, 'baton-bench-served-');
  const plain = project(lib, 'baton-bench-plain-');
  const ref = join(served.dir, 'ref.json');
  writeFileSync(ref, JSON.stringify(TASK));
  const server = await start(lib, served);
  const rows = [];
  try {
    const expr = '.wave_status["2"] = "in_progress" | .counter += 1';
    const cases = {
      servedUpdate: { argv: [node, lib.BATON, 'update', served.doc, expr], at: served, server },
      update: { argv: [node, lib.BATON, 'update', plain.doc, expr], at: plain },
      servedGet: { argv: [node, lib.BATON, 'get', served.doc, '.slug'], at: served, server },
      get: { argv: [node, lib.BATON, 'get', plain.doc, '.slug'], at: plain },
      node: { argv: [node, '-e', '0'], at: plain },
      ...(reference ? { refUpdate: { argv: ['bash', lib.REFERENCE, 'update', ref, expr], at: served } } : {}),
    };
    const ranBefore = await server.ran();
    const t = interleaved(lib, cases);
    const forwarded = (await server.ran()) - ranBefore;
    const expected = (RUNS + WARMUP) * 2;
    if (forwarded !== expected) throw new Error(`baton serve ran ${forwarded} of ${expected} forwarded commands`);
    const cpu = (name) => t[name].cpu.toFixed(1);
    rows.push({
      name: 'update through baton serve (CPU: client + server)',
      baton: t.servedUpdate.cpu,
      reference: t.refUpdate?.cpu ?? null,
      unit: 'ms',
      note: `CPU; of it the server ${t.servedUpdate.server.toFixed(1)} ms; wall ${t.servedUpdate.ms.toFixed(1)} ms; in process ${cpu('update')} ms CPU, same rounds (goal: <= 1.0x the reference)`,
    });
    rows.push({
      name: 'get through baton serve vs a bare node -e 0 (CPU)',
      baton: t.servedGet.cpu,
      reference: t.node.cpu,
      unit: 'ms',
      note: `CPU; of it the server ${t.servedGet.server.toFixed(1)} ms; in process ${cpu('get')} ms, same rounds (goal: <= 1.1x)`,
    });

    const storm = async (argv, at, file) => {
      const before = JSON.parse(readFileSync(file, 'utf8')).counter;
      const serverBefore = serverCpu(server.pid);
      const run = await lib.timeParallel(() => argv, 50, { cwd: at.dir, env: at.env });
      const failed = run.codes.filter((code) => code !== 0).length;
      return {
        ...run,
        server: serverCpu(server.pid) - serverBefore,
        lost: 50 - (JSON.parse(readFileSync(file, 'utf8')).counter - before) - failed,
        failed,
      };
    };
    const refPar = reference ? await storm(['bash', lib.REFERENCE, 'update', ref, '.counter += 1'], served, ref) : null;
    const par = await storm([node, lib.BATON, 'update', served.doc, '.counter += 1'], served, served.doc);
    const local = await storm([node, lib.BATON, 'update', plain.doc, '.counter += 1'], plain, plain.doc);
    rows.push({
      name: '50 parallel updates through baton serve (wall time)',
      baton: par.ms,
      reference: refPar?.ms ?? null,
      unit: 'ms',
      note: `lost: baton ${par.lost}, failed ${par.failed}${refPar ? `, reference ${refPar.lost}` : ''}; server CPU ${par.server.toFixed(0)} ms; in process ${local.ms.toFixed(0)} ms (lost ${local.lost}), same run (goal: <= 0.7x)`,
    });
  } finally {
    await server.stop();
  }
  return rows;
}

/** A project (BATON_ROOT) holding the bench's task document; the key folder is its own. */
function project(lib, prefix) {
  const dir = lib.tempDir(prefix);
  const env = lib.benchEnv({ BATON_ROOT: dir, XDG_STATE_HOME: dir });
  const doc = join(dir, 'task.json');
  const init = spawnSync(
    process.execPath,
    [lib.BATON, 'init', doc, '--schema', 'eneo-task', '--arg', 'slug', 'bench', '--arg', 'lane', 'deep'],
    { env, cwd: dir, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  return { dir, env, doc };
}

/** The server's CPU so far, in ms: every thread's time on a CPU (schedstat, ns), finer than stat's ticks. */
function serverCpu(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

/** Each round runs every case once, shuffled; a forwarded case adds the server's CPU during its run. */
function interleaved(lib, cases) {
  const names = Object.keys(cases);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const [, name] of names.map((n) => [Math.random(), n]).sort((a, b) => a[0] - b[0])) {
      const { argv, at, server } = cases[name];
      const before = server ? serverCpu(server.pid) : 0;
      const one = lib.timeProcessCpu(argv, { runs: 1, warmup: 0, cwd: at.dir, env: at.env });
      const spent = server ? serverCpu(server.pid) - before : 0;
      if (round >= WARMUP) samples[name].push({ ms: one.ms, cpu: one.cpu + spent, server: spent });
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        ms: median(samples[name].map((s) => s.ms)),
        cpu: median(samples[name].map((s) => s.cpu)),
        server: median(samples[name].map((s) => s.server)),
      },
    ]),
  );
}

/** `baton serve` for the project; ran() reads /health's count of commands it ran. */
async function start(lib, { dir, env }) {
  const server = spawn(process.execPath, [lib.BATON, 'serve', '--port', '0', '--idle-timeout', '0'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => (out += chunk).includes('\n') && resolve());
    server.once('exit', (code) => reject(new Error(`baton serve exited ${code}`)));
  });
  const { url, token } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8'));
  const ran = () =>
    new Promise((resolve, reject) => {
      request(`${url}/health`, { agent: new Agent(), headers: { Authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text).cli.ran));
      })
        .on('error', reject)
        .end();
    });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  return { pid: server.pid, ran, stop: () => (server.kill('SIGTERM'), exited) };
}
