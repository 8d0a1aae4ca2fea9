// baton serve rows: a PreToolUse decision as Claude Code's HTTP client asks it (in-process,
// keep-alive), alone and with 8 agents at once, against the minimal bash+jq gate; the plugin's
// client (bash's /dev/tcp, the answer's tag checked with one sha256sum) as a command hook, and
// that check alone; the server's memory and its CPU while idle.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { GATE } from './hooks.mjs';

const AGENTS = 8;
const PER_AGENT = 100;
const IDLE_MS = 5000;

export default async function serve(lib) {
  const dir = lib.tempDir('baton-bench-serve-');
  // XDG_STATE_HOME: the server's answer key goes in this run's folder, not the user's home.
  const env = lib.benchEnv({ BATON_ROOT: dir, BATON_DEBUG_LOG: join(dir, 'debug.log'), XDG_STATE_HOME: dir });
  const node = process.execPath;
  writeFileSync(join(dir, 'baton.config.json'), '{"profile": "eneo"}\n');
  for (const args of [
    ['task', 'init', '--', 'bench', 'deep', '4', 'none', 'none'],
    ['task', 'phase-set', 'GREEN'],
  ]) {
    const r = spawnSync(node, [lib.BATON, ...args], { cwd: dir, env });
    if (r.status !== 0) throw new Error(`baton ${args.join(' ')} failed: ${r.stderr}`);
  }
  const gate = join(dir, 'gate.sh');
  writeFileSync(gate, GATE, { mode: 0o755 });
  const payload = (path) =>
    JSON.stringify({
      session_id: 's',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(dir, path), content: 'x' },
    });
  const allow = payload('backend/src/app.py');
  const deny = payload('backend/tests/test_app.py');

  const server = spawn(node, [lib.BATON, 'serve', '--port', '0', '--idle-timeout', '0'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (chunk) => (out += chunk).includes('\n') && resolve());
      server.once('exit', (code) => reject(new Error(`baton serve exited ${code}`)));
    });
    const { url, token } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8'));
    const agent = new Agent({ keepAlive: true, maxSockets: AGENTS });
    const ask = (body) =>
      new Promise((resolve, reject) => {
        const start = process.hrtime.bigint();
        const req = request(
          `${url}/hooks/PreToolUse`,
          { method: 'POST', agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    if (!/deny/.test((await ask(deny)).text) || /deny/.test((await ask(allow)).text))
      throw new Error('baton serve did not decide as baton hook does');
    const sequential = async (body, runs = 200) => {
      for (let i = 0; i < 20; i++) await ask(body);
      const times = [];
      for (let i = 0; i < runs; i++) times.push((await ask(body)).ms);
      return times.sort((a, b) => a - b);
    };
    const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
    const allowed = await sequential(allow);
    const denied = await sequential(deny);
    // 8 agents at once, each calling as soon as its last answer came, alternating allow and deny.
    const all = [];
    await Promise.all(
      Array.from({ length: AGENTS }, async (_, a) => {
        for (let i = 0; i < PER_AGENT; i++) all.push((await ask((i + a) % 2 ? deny : allow)).ms);
      }),
    );
    all.sort((a, b) => a - b);
    agent.destroy();

    const wrapper = join(lib.ROOT, 'plugin', 'bin', 'baton');
    // What believing only a signed answer costs the client: the check as serve-client.bash runs it.
    const signed = `${'k'.repeat(43)}\x1e/hooks/PreToolUse?client=sh&nonce=${'0'.repeat(32)}\x1e${deny}\x1e\x1e\x1e0\x1e${'k'.repeat(43)}`;
    // Side by side, in shuffled turns, with CPU time: on a loaded machine the wall time is mostly waiting.
    const t = lib.timeInterleaved(
      {
        gateAllow: { argv: ['bash', gate], input: allow },
        gateDeny: { argv: ['bash', gate], input: deny },
        client: { argv: ['sh', wrapper, 'hook', 'PreToolUse'], input: deny, env: { ...env, CLAUDE_PROJECT_DIR: dir } },
        inProcess: {
          argv: ['sh', wrapper, 'hook', 'PreToolUse'],
          input: deny,
          env: { ...env, CLAUDE_PROJECT_DIR: dir, BATON_SERVE_SKIP: '1' },
        },
        check: { argv: ['bash', '-c', 'sum=$(sha256sum <<<"$0"); [ "${sum%% *}" != x ]', signed] },
        bare: { argv: ['bash', '-c', ':'] },
      },
      { cwd: dir, env },
    );
    const gateAllow = t.gateAllow.ms;
    const gateDeny = t.gateDeny.ms;

    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;
    const cpu = () => {
      const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (10 ms)
    };
    const memory = rss();
    const before = cpu();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleTicks = cpu() - before;
    return [
      {
        name: 'serve: PreToolUse Write allowed, HTTP keep-alive (p50)',
        baton: at(allowed, 0.5),
        reference: gateAllow,
        unit: 'ms',
        note: `p99 ${at(allowed, 0.99).toFixed(1)} ms of 200 in one process; ref = bash+jq gate process`,
      },
      {
        name: 'serve: PreToolUse Write denied, HTTP keep-alive (p50)',
        baton: at(denied, 0.5),
        reference: gateDeny,
        unit: 'ms',
        note: `p99 ${at(denied, 0.99).toFixed(1)} ms`,
      },
      {
        name: `serve: PreToolUse, ${AGENTS} agents at once (p99)`,
        baton: at(all, 0.99),
        reference: gateDeny,
        unit: 'ms',
        note: `p50 ${at(all, 0.5).toFixed(1)} ms of ${all.length}; ref = one bash+jq gate process`,
      },
      {
        name: 'serve: client hook (sh + bash /dev/tcp, signed), denied',
        baton: t.client.ms,
        reference: gateDeny,
        cpu: [t.client.cpu, t.gateDeny.cpu],
        unit: 'ms',
        note: `plugin/bin/baton with a server; without: ${t.inProcess.ms.toFixed(1)} ms, CPU ${t.inProcess.cpu?.toFixed(1)} ms (Node starts)`,
      },
      {
        name: "serve: the client's tag check (bash + one sha256sum)",
        baton: t.check.ms,
        reference: t.bare.ms,
        cpu: [t.check.cpu, t.bare.cpu],
        unit: 'ms',
        note: 'ref = bash alone: the difference is what the check costs per hook',
      },
      {
        name: 'serve: server memory (RSS) after these rows',
        baton: memory,
        reference: null,
        unit: 'MB',
        note: 'file store; documents are read per call, not cached',
      },
      {
        name: `serve: CPU while idle for ${IDLE_MS / 1000} s`,
        baton: idleTicks * 10,
        reference: null,
        unit: 'ms',
        note: 'utime + stime from /proc (10 ms ticks)',
      },
    ];
  } finally {
    server.kill('SIGTERM');
  }
}
