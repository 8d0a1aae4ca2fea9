// PostgreSQL rows: library updates per second on a durable throwaway cluster (fsync and
// synchronous_commit on), with 1 writer and 8 concurrent writers on 8 documents and 8 on one shared
// document (serialised by its row lock); the 8 writers on 8 documents side by side with pgbench's
// built-in simple-update at 8 clients on the same cluster (the server's limit for a transaction of
// that shape); 50 parallel CLI update processes on PostgreSQL against the file store; and a
// PreToolUse hook's latency with each store. The cluster is started from the machine's server
// binaries, as the tests do (test/helpers/postgres-cluster.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
    const rate = async (writers, docs, seconds) => {
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
      return done / elapsed;
    };
    const eight = Array.from({ length: 8 }, (_, i) => open(`lib/d${i}.json`));
    const shared = open('lib/shared.json');
    const rows = [
      { name: 'PostgreSQL library updates/s, 1 writer over 8 documents', baton: await rate(1, eight) },
      { name: 'PostgreSQL library updates/s, 8 writers on 8 documents', baton: await rate(8, eight) },
      { name: 'PostgreSQL library updates/s, 8 writers on 1 document', baton: await rate(8, Array(8).fill(shared)) },
    ].map((row) => ({ ...row, reference: null, unit: '/s', note: 'durable commits (fsync, synchronous_commit on)' }));

    // Against the limit: pgbench and the library in turns on the same cluster, so both see the same
    // machine load; the median of three turns each.
    const pgbench = (args) => {
      const r = spawnSync(join(serverBinaries(), 'pgbench'), [...args, url], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`pgbench ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    pgbench(['-i', '-q']);
    const turns = { pgbench: [], baton: [] };
    for (let turn = 0; turn < 3; turn++) {
      turns.pgbench.push(Number(/tps = ([\d.]+)/.exec(pgbench(['-N', '-c', '8', '-j', '2', '-T', '5']))?.[1]));
      turns.baton.push(await rate(8, eight, 5));
    }
    const median = (values) => values.sort((a, b) => a - b)[1];
    rows.push({
      name: 'PostgreSQL 8 writers, 8 docs vs pgbench -N, 8 clients',
      baton: median(turns.baton),
      reference: median(turns.pgbench),
      unit: '/s',
      note: 'ratio: higher is better (target >= 0.5); reference = pgbench simple-update tps, same cluster',
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
