// PostgreSQL rows: library updates per second on a durable throwaway cluster (fsync and
// synchronous_commit on), with 1 writer and 8 concurrent writers on 8 documents and 8 on one shared
// document (serialised by its row lock); the 8 writers on 8 documents side by side with pgbench's
// built-in simple-update at 8 clients on the same cluster (the server's limit for a transaction of
// that shape); 50 parallel CLI update processes on PostgreSQL against the file store; and a
// PreToolUse hook's latency with each store. The cluster is started from the machine's server
// binaries, as the tests do (test/helpers/postgres-cluster.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROUNDS = 400;

export default async function postgres(lib) {
  const { tsImport } = await import('tsx/esm/api');
  const { startCluster, serverBinaries } = await tsImport(
    join(lib.ROOT, 'test/helpers/postgres-cluster.ts'),
    import.meta.url,
  );
  const { openDoc } = await import(pathToFileURL(join(lib.ROOT, 'dist', 'index.mjs')).href);
  const cluster = await startCluster({ durable: true });
  try {
    const url = await cluster.createDatabase('bench');
    const dir = lib.tempDir('baton-bench-pg-');
    const env = lib.benchEnv({ BATON_ROOT: dir, BATON_PROJECT: 'bench' });
    const node = process.execPath;
    const cli = (args, extra = {}) => {
      const r = spawnSync(node, [lib.BATON, ...args], { cwd: dir, env: { ...env, ...extra } });
      if (r.status !== 0) throw new Error(`baton ${args.join(' ')} failed: ${r.stderr}`);
    };
    cli(['store', 'migrate'], { BATON_STORE: url });
    const open = (key) => openDoc(join(dir, key), { store: url, cwd: dir, env });

    /**
     * Runs `writers` concurrent loops of updates over `docs` (ROUNDS in all, or for `seconds`);
     * committed updates per second.
     */
    const rate = async (writers, docs, seconds, detail = false) => {
      for (const doc of new Set(docs)) await doc.init({ n: 0 }, { force: true });
      const per = Math.ceil(ROUNDS / writers);
      const start = process.hrtime.bigint();
      const end = seconds === undefined ? undefined : start + BigInt(seconds * 1e9);
      let done = 0;
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          // One writer goes round the documents; several each keep to one (or share the only one).
          for (let i = 0; end === undefined ? i < per : process.hrtime.bigint() < end; i++) {
            await docs[(writers === 1 ? i : w) % docs.length].update('.n += 1');
            done++;
          }
        }),
      );
      const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
      let total = 0;
      for (const doc of new Set(docs)) total += (await doc.read()).n;
      if (total !== done) throw new Error(`lost updates: ${done - total}`);
      return detail ? { rate: done / elapsed, done } : done / elapsed;
    };
    const eight = Array.from({ length: 8 }, (_, i) => open(`lib/d${i}.json`));
    const shared = open('lib/shared.json');
    const rows = [
      { name: 'PostgreSQL library updates/s, 1 writer over 8 documents', baton: await rate(1, eight) },
      { name: 'PostgreSQL library updates/s, 8 writers on 8 documents', baton: await rate(8, eight) },
      { name: 'PostgreSQL library updates/s, 8 writers on 1 document', baton: await rate(8, Array(8).fill(shared)) },
    ].map((row) => ({ ...row, reference: null, unit: '/s', note: 'durable commits (fsync, synchronous_commit on)' }));

    // Against the limit: pgbench and the library in turns on the same cluster, so both see the same
    // machine load, the order swapped each turn; the median of five turns each. CPU per
    // transaction, client and server apart: the client's is this process's for the library and the
    // pgbench child's (bash `times`), the server's the cluster's processes' (/proc), so a loaded
    // machine shows where the time goes and not only how long it took.
    const data = (await cluster.sql(new URL(url).pathname.slice(1), 'SHOW data_directory'))[0].data_directory;
    const serverCpu = serverCpuReader(data);
    const pgbench = (args) => {
      const bin = join(serverBinaries(), 'pgbench');
      const r = spawnSync('bash', ['-c', '"$@"; times', 'bash', bin, ...args, url], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`pgbench ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    pgbench(['-i', '-q']);
    const turns = { pgbench: [], baton: [], baseline: [] };
    // BATON_BENCH_BASELINE=<another checkout, built>: its library takes a third turn, so a change is
    // compared with the build before it in the same run.
    const baselineRoot = process.env.BATON_BENCH_BASELINE;
    const baselineDocs = baselineRoot
      ? await (async () => {
          const { openDoc: openBaseline } = await import(pathToFileURL(join(baselineRoot, 'dist', 'index.mjs')).href);
          return Array.from({ length: 8 }, (_, i) =>
            openBaseline(join(dir, `base/d${i}.json`), { store: url, cwd: dir, env }),
          );
        })()
      : undefined;
    const library = (docs, into) => async () => {
      const server = serverCpu();
      const before = process.cpuUsage();
      const result = await rate(8, docs, SECONDS, true);
      const cpu = process.cpuUsage(before);
      into.push({
        rate: result.rate,
        client: (cpu.user + cpu.system) / result.done,
        server: serverCpu(server) / result.done,
      });
    };
    const SECONDS = 5;
    for (let turn = 0; turn < 5; turn++) {
      const sides = [
        () => {
          const server = serverCpu();
          const out = pgbench(['-N', '-c', '8', '-j', '2', '-T', String(SECONDS)]);
          const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
          // The last line of `times`: the children's user and system time.
          const [, um, us, sm, ss] = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(out.trim()) ?? [];
          const client = (Number(um) * 60 + Number(us) + Number(sm) * 60 + Number(ss)) * 1e6;
          turns.pgbench.push({
            rate: tps,
            client: client / (tps * SECONDS),
            server: serverCpu(server) / (tps * SECONDS),
          });
        },
        library(eight, turns.baton),
        ...(baselineDocs ? [library(baselineDocs, turns.baseline)] : []),
      ];
      // Each side takes each place in the order in turn.
      for (let k = 0; k < turn % sides.length; k++) sides.push(sides.shift());
      for (const side of sides) await side();
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratios = turns.baton.map((b, i) => b.rate / turns.pgbench[i].rate);
    rows.push({
      name: 'PostgreSQL 8 writers, 8 docs vs pgbench -N, 8 clients',
      baton: median(turns.baton.map((t) => t.rate)),
      reference: median(turns.pgbench.map((t) => t.rate)),
      unit: '/s',
      note: `ratio: higher is better (target >= 0.5); reference = pgbench simple-update tps, same cluster; per turn ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
    });
    if (baselineDocs) {
      rows.push({
        name: 'PostgreSQL 8 writers, 8 docs: this build vs baseline',
        baton: median(turns.baton.map((t) => t.rate)),
        reference: median(turns.baseline.map((t) => t.rate)),
        unit: '/s',
        note: `higher is better; baseline = ${baselineRoot}; per turn ${turns.baton.map((b, i) => (b.rate / turns.baseline[i].rate).toFixed(2)).join(' ')}`,
      });
      rows.push({
        name: 'PostgreSQL client CPU per transaction (build vs baseline)',
        baton: median(turns.baton.map((t) => t.client)),
        reference: median(turns.baseline.map((t) => t.client)),
        unit: 'us',
        note: 'user+sys of this process',
      });
      for (const doc of baselineDocs) await doc.store.close();
    }
    for (const [side, label] of [
      ['client', 'client CPU per transaction (library vs pgbench)'],
      ['server', 'server CPU per transaction (library vs pgbench)'],
    ])
      rows.push({
        name: `PostgreSQL ${label}`,
        baton: median(turns.baton.map((t) => t[side])),
        reference: median(turns.pgbench.map((t) => t[side])),
        unit: 'us',
        note:
          side === 'client'
            ? 'user+sys; median of the turns above'
            : 'every process of the cluster; median of the turns above',
      });
    for (const doc of [...eight, shared]) await doc.store.close();

    // 50 parallel CLI updates of one document: PostgreSQL, then the file store.
    const parallel = async (extra) => {
      cli(['init', 'cli.json', '--force', '--argjson', 'counter', '0'], extra);
      const run = await lib.timeParallel(() => [node, lib.BATON, 'update', 'cli.json', '.counter += 1'], 50, {
        cwd: dir,
        env: { ...env, ...extra },
      });
      const out = spawnSync(node, [lib.BATON, 'get', 'cli.json', '.counter'], { cwd: dir, env: { ...env, ...extra } });
      return { ...run, lost: 50 - Number(out.stdout.toString().trim()) };
    };
    const onPg = await parallel({ BATON_STORE: url });
    const onFile = await parallel({});
    rows.push({
      name: '50 parallel CLI updates, one document: PostgreSQL vs file',
      baton: onPg.ms,
      reference: onFile.ms,
      unit: 'ms',
      note: `lost: PostgreSQL ${onPg.lost}, file ${onFile.lost}; non-zero exits: ${onPg.codes.filter(Boolean).length}, ${onFile.codes.filter(Boolean).length}`,
    });

    // A PreToolUse hook that reads the task (Eneo profile), and an event the profile ignores.
    writeFileSync(join(dir, 'baton.config.json'), '{"profile": "eneo"}\n');
    const payload = (event) =>
      JSON.stringify({
        session_id: 's',
        hook_event_name: event,
        tool_name: 'Write',
        tool_input: { file_path: join(dir, 'src/app.py'), content: 'x' },
      });
    for (const extra of [{ BATON_STORE: url }, {}]) {
      cli(['task', 'init', '--', 'bench', 'deep', '4', 'none', 'none'], extra);
      cli(['task', 'phase-set', 'GREEN'], extra);
    }
    const hook = (event, extra) =>
      lib.timeProcess([node, lib.BATON, 'hook', event], { cwd: dir, env: { ...env, ...extra }, input: payload(event) });
    rows.push(
      {
        name: 'hook PreToolUse (allow): PostgreSQL vs file',
        baton: hook('PreToolUse', { BATON_STORE: url }),
        reference: hook('PreToolUse', {}),
        unit: 'ms',
        note: 'median of 20; reference column = file store',
      },
      {
        name: 'hook for an ignored event: PostgreSQL vs file',
        baton: hook('Notification', { BATON_STORE: url }),
        reference: hook('Notification', {}),
        unit: 'ms',
        note: 'no connection on this path',
      },
    );
    return rows;
  } finally {
    cluster.stop();
  }
}

/**
 * CPU time (µs, user + system) of the cluster's processes: the postmaster named in its pid file,
 * its children, and its children that ended. Called with no argument it returns a reading; with one, the time since it.
 */
function serverCpuReader(data) {
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const tick = 1e6 / 100; // USER_HZ is 100 on Linux
  const read = () => {
    const cpu = new Map();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // Fields after the command's closing parenthesis: state, ppid, ..., utime (14th), stime (15th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(name);
      // The postmaster's own time, and its children's that ended (cutime, cstime: 16th, 17th):
      // pgbench's sessions end with its run, and their time would otherwise go with them.
      if (pid === postmaster)
        cpu.set(pid, (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * tick);
      else if (Number(fields[1]) === postmaster) cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
    }
    return cpu;
  };
  return (since) => {
    const now = read();
    if (!since) return now;
    let total = 0;
    // A process that ended in between took its time with it; one that started counts from zero.
    for (const [pid, value] of now) total += value - (since.get(pid) ?? 0);
    return total;
  };
}
