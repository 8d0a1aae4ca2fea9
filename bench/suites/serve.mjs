// baton serve rows: a PreToolUse decision as Claude Code's HTTP client asks it (in-process,
// keep-alive), alone and with 8 agents at once (a client process of its own, three runs in turns
// across the stores, the median of their p99s; bare sockets beside it, in the note), on the file
// store and on PostgreSQL, side by side with the minimal bash+jq gate; the plugin's client (bash's
// /dev/tcp, the answer's tag checked with one sha256sum) as a command hook, and that check alone;
// the server's memory in a project of 100 documents and 10,000 revisions, and its CPU while idle.
// Beside the 8-agent rows, the same bursts against a server that judges nothing (bench/serve-floor.mjs):
// the floor this client and machine give, so a run tells the server's share of the tail from the machine's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GATE } from './hooks.mjs';

const AGENTS = 8;
const PER_AGENT = 100;
/** Runs of the agents at once per store, in turns: one run's p99 is its 8 slowest calls, a moment's luck. */
const BURSTS = 3;
const IDLE_MS = 5000;
const DOCUMENTS = 100;
const REVISIONS = 10_000;

export default async function serve(lib) {
  const file = await project(lib, {});
  const gate = join(file.dir, 'gate.sh');
  writeFileSync(gate, GATE, { mode: 0o755 });

  // 100 documents of 100 revisions each beside the task: the server's memory must not grow with them.
  const { openDoc } = await import(pathToFileURL(join(lib.ROOT, 'dist', 'index.mjs')).href);
  await Promise.all(
    Array.from({ length: DOCUMENTS }, async (_, i) => {
      const doc = openDoc(join(file.dir, 'docs', `d${i}.json`), { cwd: file.dir, env: file.env });
      await doc.init({ n: 0, text: 'x'.repeat(200) });
      for (let rev = 1; rev < REVISIONS / DOCUMENTS; rev++) await doc.update('.n += 1');
    }),
  );

  const cluster = await postgresCluster(lib);
  const pg = cluster ? await project(lib, { store: cluster.url, project: 'bench-serve' }) : undefined;
  const servers = [];
  let floor;
  try {
    const onFile = await start(lib, file);
    servers.push(onFile);
    const onPg = pg ? await start(lib, pg) : undefined;
    if (onPg) servers.push(onPg);
    floor = await startFloor(lib, onFile);
    // Side by side: each turn measures both stores, so a loaded machine weighs on both alike.
    const sequential = { file: { allow: [], deny: [] }, pg: { allow: [], deny: [] } };
    for (const s of servers) for (let i = 0; i < 20; i++) await s.ask(i % 2 ? s.deny : s.allow);
    for (let turn = 0; turn < 10; turn++) {
      for (const [name, s] of [
        ['file', onFile],
        ['pg', onPg],
      ]) {
        if (!s) continue;
        for (let i = 0; i < 20; i++) {
          sequential[name].allow.push((await s.ask(s.allow)).ms);
          sequential[name].deny.push((await s.ask(s.deny)).ms);
        }
      }
    }
    // The agents' client runs in a fresh process (bench/serve-agents.mjs says why).
    const burst = (s, client = 'http') => {
      const ran = s.threadsNs();
      return new Promise((resolve, reject) => {
        const job = {
          url: s.url,
          token: s.token,
          allow: s.allow,
          deny: s.deny,
          agents: AGENTS,
          perAgent: PER_AGENT,
          client,
        };
        const child = spawn(
          process.execPath,
          [join(lib.ROOT, 'bench', 'serve-agents.mjs'), JSON.stringify({ ...job, warmup: 50 })],
          { env: lib.benchEnv(), stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.on('close', (code) => {
          if (code !== 0) return reject(new Error(`the agents' client exited ${code}`));
          const seen = JSON.parse(out);
          // The server's CPU (every thread's run time, /proc schedstat) per call, warm-up calls included.
          const serverCpu = (s.threadsNs() - ran) / 1e6 / (AGENTS * (PER_AGENT + 50));
          resolve({ ...seen, serverCpu, times: seen.times.sort((x, y) => x - y) });
        });
      });
    };
    for (const s of servers) await s.health();
    // Beside each, the same calls from bare sockets (serve-agents.mjs): the tail without an HTTP client's.
    const bursts = { file: { http: [], raw: [] }, pg: { http: [], raw: [] }, floor: { http: [] } };
    for (let run = 0; run < BURSTS; run++)
      for (const client of ['http', 'raw']) {
        bursts.file[client].push(await burst(onFile, client));
        if (onPg) bursts.pg[client].push(await burst(onPg, client));
        if (client === 'http') bursts.floor.http.push(await burst(floor));
      }
    for (const list of Object.values(sequential)) for (const times of Object.values(list)) times.sort((x, y) => x - y);

    const wrapper = join(lib.ROOT, 'plugin', 'bin', 'baton');
    const { dir, env } = file;
    // What believing only a signed answer costs the client: the check as serve-client.bash runs it.
    const signed = `${'k'.repeat(43)}\x1e/hooks/PreToolUse?client=sh&nonce=${'0'.repeat(32)}\x1e${onFile.deny}\x1e\x1e\x1e0\x1e${'k'.repeat(43)}`;
    // Side by side, in shuffled turns, with CPU time: on a loaded machine the wall time is mostly waiting.
    const servedBefore = await onFile.answered();
    const t = lib.timeInterleaved(
      {
        gateAllow: { argv: ['bash', gate], input: onFile.allow },
        gateDeny: { argv: ['bash', gate], input: onFile.deny },
        client: {
          argv: ['sh', wrapper, 'hook', 'PreToolUse'],
          input: onFile.deny,
          env: { ...env, CLAUDE_PROJECT_DIR: dir },
        },
        inProcess: {
          argv: ['sh', wrapper, 'hook', 'PreToolUse'],
          input: onFile.deny,
          env: { ...env, CLAUDE_PROJECT_DIR: dir, BATON_SERVE_SKIP: '1' },
        },
        check: { argv: ['bash', '-c', 'sum=$(exec sha256sum <<<"$0"); [ "${sum%% *}" != x ]', signed] },
        bare: { argv: ['bash', '-c', ':'] },
      },
      { cwd: dir, env },
    );
    // Every client run (2 warm-up, 20 timed) must be the server's answer, not the in-process fallback.
    if ((await onFile.answered()) - servedBefore < 22)
      throw new Error('the client row fell back to judging in process: the server did not answer every run');
    const gateAllow = t.gateAllow.ms;
    const gateDeny = t.gateDeny.ms;

    const memory = onFile.rss();
    const before = onFile.cpu();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleTicks = onFile.cpu() - before;
    // Again after a dashboard page was opened and closed: its live updates stop with the last page.
    // (Measured after a settle: the keep-alive sockets of the login and of /health end, 5 s after
    // their last request, as Node's server times them out; the page's garbage is collected.)
    await onFile.visitDashboard();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const [runNs, wakeups] = [onFile.runNs(), onFile.wakeups()];
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const afterPage = { ms: (onFile.runNs() - runNs) / 1e6, wakeups: onFile.wakeups() - wakeups };
    const rows = [];
    const decision = (store, s, times, kind, reference) => ({
      name: `serve: PreToolUse ${kind} p50, keep-alive, ${store}`,
      baton: at(times, 0.5),
      reference,
      unit: 'ms',
      note: `p99 ${at(times, 0.99).toFixed(1)} ms of ${times.length}; ref = bash+jq gate process${kind === 'allow' ? `; ${s.kept()}` : ''}`,
    });
    const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    const list = (values) => values.map((v) => v.toFixed(1)).join(', ');
    const p99s = (runs) => runs.map(({ times }) => at(times, 0.99));
    const serverCpu = (runs) => runs.map((b) => b.serverCpu.toFixed(2)).join(', ');
    const burstRow = (store, { http, raw }) => {
      return {
        name: `serve: ${AGENTS} agents at once p99, ${store}`,
        baton: median(p99s(http)),
        reference: gateDeny,
        unit: 'ms',
        note: `median of ${http.length} runs of ${http[0].times.length} (p99s ${list(p99s(http))}; p50s ${list(http.map(({ times }) => at(times, 0.5)))} ms); server CPU ${serverCpu(http)} ms per call; client process: ${http.map((b) => b.cpuPerCall.toFixed(2)).join(', ')} ms CPU per call, GC pauses ${http.map((b) => b.gc.count).join(', ')}, longest ${list(http.map((b) => b.gc.max))} ms; bare sockets instead: p99 ${median(p99s(raw)).toFixed(1)} ms (${list(p99s(raw))}), client CPU ${median(raw.map((b) => b.cpuPerCall)).toFixed(2)} ms per call; ref = one bash+jq gate process`,
      };
    };
    rows.push(decision('file store', onFile, sequential.file.allow, 'allow', gateAllow));
    if (onPg) rows.push(decision('PostgreSQL', onPg, sequential.pg.allow, 'allow', gateAllow));
    rows.push(decision('file store', onFile, sequential.file.deny, 'deny', gateDeny));
    if (onPg) rows.push(decision('PostgreSQL', onPg, sequential.pg.deny, 'deny', gateDeny));
    rows.push(burstRow('file store', bursts.file));
    if (onPg) rows.push(burstRow('PostgreSQL', bursts.pg));
    rows.push({
      name: `serve: ${AGENTS} agents at once p99, a server judging nothing`,
      baton: median(p99s(bursts.floor.http)),
      reference: null,
      unit: 'ms',
      note: `the floor: node:http answering baton's bytes, in the same turns; p99s ${list(p99s(bursts.floor.http))}; p50s ${list(bursts.floor.http.map(({ times }) => at(times, 0.5)))} ms; server CPU ${serverCpu(bursts.floor.http)} ms per call; client ${bursts.floor.http.map((b) => b.cpuPerCall.toFixed(2)).join(', ')} ms`,
    });
    rows.push(
      {
        name: 'serve: client hook (bash /dev/tcp, signed), deny',
        baton: t.client.ms,
        reference: gateDeny,
        cpu: [t.client.cpu, t.gateDeny.cpu],
        unit: 'ms',
        note: `plugin/bin/baton with a server; without: ${t.inProcess.ms.toFixed(1)} ms, CPU ${t.inProcess.cpu?.toFixed(1)} ms (Node starts)`,
      },
      {
        name: "serve: the client's tag check (bash + sha256sum)",
        baton: t.check.ms,
        reference: t.bare.ms,
        cpu: [t.check.cpu, t.bare.cpu],
        unit: 'ms',
        note: 'ref = bash alone: the difference is what the check costs per hook',
      },
      {
        name: `serve: RSS, ${DOCUMENTS} documents, ${REVISIONS} revisions`,
        baton: memory,
        reference: null,
        unit: 'MB',
        note: `file store, after the rows above (about 7,000 calls), started with --detach as SessionStart starts it${onPg ? `; the PostgreSQL server: ${onPg.rss().toFixed(1)} MB` : ''}`,
      },
      {
        name: `serve: CPU while idle for ${IDLE_MS / 1000} s`,
        baton: idleTicks * 10,
        reference: null,
        unit: 'ms',
        note: 'file store; utime + stime from /proc (10 ms ticks)',
      },
      {
        name: `serve: CPU while idle for ${IDLE_MS / 1000} s after a dashboard page was closed`,
        baton: afterPage.ms,
        reference: null,
        unit: 'ms',
        note: `file store; run time of the main thread (/proc schedstat), ${afterPage.wakeups} wake-ups; the page logged in, held the live-update stream, closed`,
      },
    );
    if (!onPg)
      rows.push({
        name: 'serve: PostgreSQL rows skipped',
        baton: null,
        reference: null,
        unit: 'ms',
        note: 'no PostgreSQL server binaries on this machine',
      });
    return rows;
  } finally {
    floor?.stop();
    for (const s of servers) s.stop();
    cluster?.stop();
  }
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** A green project for the server, on the store the config names. */
function project(lib, config) {
  const p = lib.greenProject('baton-bench-serve-', config);
  // The server's answer key goes in this run's folder, not the user's home.
  p.env.XDG_STATE_HOME = p.dir;
  mkdirSync(join(p.dir, 'docs'));
  return p;
}

async function postgresCluster(lib) {
  try {
    const { tsImport } = await import('tsx/esm/api');
    const { startCluster } = await tsImport(join(lib.ROOT, 'test/helpers/postgres-cluster.ts'), import.meta.url);
    const cluster = await startCluster({ durable: true });
    return { url: await cluster.createDatabase('serve'), stop: () => cluster.stop() };
  } catch {
    return undefined;
  }
}

/**
 * `baton serve` for the project, started as a session's SessionStart starts it (`--detach`, with
 * the Node flags that start gives it), and a keep-alive client asking it as Claude Code does.
 */
async function start(lib, { dir, env }) {
  const started = spawnSync(process.execPath, [lib.BATON, 'serve', '--detach', '--port', '0', '--idle-timeout', '0'], {
    cwd: dir,
    env: lib.timedEnv(env),
    encoding: 'utf8',
  });
  if (started.status !== 0) throw new Error(`baton serve --detach exited ${started.status}: ${started.stderr}`);
  const { url, token, ui, pid } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8'));
  const server = { pid, kill: (signal) => process.kill(pid, signal) };
  const agent = new Agent({ keepAlive: true, maxSockets: AGENTS });
  const payload = (path) => lib.writePayload(dir, path);
  const call = (path, body, method = 'POST') =>
    new Promise((resolve, reject) => {
      const began = process.hrtime.bigint();
      const req = request(
        `${url}${path}`,
        { method, agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - began) / 1e6, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const ask = (body) => call('/hooks/PreToolUse', body);
  const allow = payload('backend/src/app.py');
  const deny = payload('backend/tests/test_app.py');
  const denied = (await ask(deny)).text;
  if (!/deny/.test(denied) || /deny/.test((await ask(allow)).text))
    throw new Error('baton serve did not decide as baton hook does');
  let kept = '';
  const health = async () => {
    const seen = JSON.parse((await call('/health', '', 'GET')).text).kept;
    kept = `kept reads: ${seen.hits} from memory, ${seen.reads} read`;
  };
  return {
    url,
    token,
    allow,
    deny,
    denied,
    ask,
    kept: () => kept,
    health,
    // A connection of its own: after a long synchronous row, the agent's kept one is closed by the server.
    answered: () =>
      new Promise((resolve, reject) => {
        request(`${url}/health`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text).answered));
        })
          .on('error', reject)
          .end();
      }),
    visitDashboard: async () => {
      const login = await new Promise((resolve) => request(ui, resolve).end());
      login.resume();
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      const page = await new Promise((resolve) =>
        request(`${url}/api/events`, { headers: { Cookie: cookie } }, resolve).end(),
      );
      await new Promise((resolve) => page.once('data', resolve));
      page.destroy();
      const pages = async () => JSON.parse((await call('/health', '', 'GET')).text).dashboard?.pages ?? 0;
      while ((await pages()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    runNs: () => Number(readFileSync(`/proc/${server.pid}/schedstat`, 'utf8').split(' ')[0]),
    /** Every thread's run time: V8's and libuv's helpers run beside the main thread. */
    threadsNs: () => threadsNs(server.pid),
    wakeups: () =>
      Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]),
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024,
    cpu: () => {
      const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (10 ms)
    },
    stop: () => {
      agent.destroy();
      server.kill('SIGTERM');
    },
  };
}

/** The run time of every thread of a process, in ns (/proc schedstat). */
function threadsNs(pid) {
  let sum = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return sum;
}

/** bench/serve-floor.mjs answering the file-store server's bytes, with the Node flags a detached server has. */
async function startFloor(lib, real) {
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=2',
      join(lib.ROOT, 'bench', 'serve-floor.mjs'),
      JSON.stringify({ deny: real.deny, denied: real.denied }),
    ],
    { env: lib.benchEnv(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const { port, pid } = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code) => reject(new Error(`bench/serve-floor.mjs exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    token: 'none',
    allow: real.allow,
    deny: real.deny,
    threadsNs: () => threadsNs(pid),
    stop: () => child.kill('SIGTERM'),
  };
}
