/**
 * A throwaway PostgreSQL cluster for one test file: initdb into a temp folder, a server on a free
 * loopback port with its unix socket in that folder, password authentication over TCP (so a wrong
 * password can be tested), and everything stopped and removed when the test file ends. As root, the
 * server binaries refuse to run, so they run as the `postgres` user, who owns the temp folder.
 *
 * Missing binaries fail the suite loudly: CI installs them (.ci/run), and a store whose tests
 * silently skipped would look green while untested.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface Cluster {
  /** A connection string for `database` as the superuser. */
  url(database: string, options?: { password?: string }): string;
  port: number;
  password: string;
  /** Creates a fresh database and returns its connection string. */
  createDatabase(prefix?: string): Promise<string>;
  /** Runs SQL as the superuser in `database`. */
  sql<R extends pg.QueryResultRow = pg.QueryResultRow>(
    database: string,
    text: string,
    values?: unknown[],
  ): Promise<R[]>;
  /** `pg_ctl restart -m fast`: every session is cut, the server comes back on the same port. */
  restart(): void;
  stop(): void;
}

const ROOT_BINARIES = '/usr/lib/postgresql';

/** The newest installed server version's bin folder, or a failure naming the fix. */
export function serverBinaries(): string {
  const versions = existsSync(ROOT_BINARIES)
    ? readdirSync(ROOT_BINARIES)
        .filter((version) => existsSync(join(ROOT_BINARIES, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  if (version === undefined)
    throw new Error(
      `no PostgreSQL server binaries under ${ROOT_BINARIES}/<version>/bin (initdb, pg_ctl); install them with 'apt-get install postgresql' (.ci/run does): the PostgreSQL store tests never skip`,
    );
  return join(ROOT_BINARIES, version, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const started = new Set<Cluster>();
// A failed `before` or an assertion can skip a test file's own cleanup; a server left running
// would outlive the run, so whatever is still up is stopped when the process exits.
process.on('exit', () => {
  for (const cluster of started) cluster.stop();
});

export async function startCluster(options: { durable?: boolean } = {}): Promise<Cluster> {
  const bin = serverBinaries();
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'baton-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[], extra: ExecFileSyncOptions = {}) => {
    const command = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return execFileSync(command[0] as string, command[1] as string[], { cwd: dir, stdio: 'pipe', ...extra });
  };
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o644 });
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--pwfile',
    pwfile,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  rmSync(pwfile);
  // Tests run without fsync (a test asserts behaviour, not the disk's speed); the benchmark asks
  // for a durable cluster, where commits wait for the disk as they would in production.
  const settings = [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'max_connections = 200',
    options.durable ? 'fsync = on' : 'fsync = off',
    'synchronous_commit = on',
    options.durable ? '' : 'full_page_writes = off',
  ];
  writeFileSync(
    join(data, 'postgresql.conf'),
    `${readFileSync(join(data, 'postgresql.conf'), 'utf8')}\n${settings.join('\n')}\n`,
  );
  let port = 0;
  const start = () => run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-o', `-p ${port}`, 'start']);
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      start();
      break;
    } catch (error) {
      // Another process may take the port between finding it free and the server binding it.
      if (attempt >= 3) {
        const detail = safeRead(log);
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start: ${String(error)}\n${detail}`, { cause: error });
      }
    }
  }
  let stopped = false;
  const url = (database: string, opts: { password?: string } = {}) =>
    `postgres://postgres:${encodeURIComponent(opts.password ?? password)}@127.0.0.1:${port}/${database}`;
  const sql = async <R extends pg.QueryResultRow>(database: string, text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  let databases = 0;
  const cluster: Cluster = {
    url,
    port,
    password,
    sql,
    async createDatabase(prefix = 'baton') {
      const name = `${prefix}_${process.pid}_${++databases}`;
      await sql('postgres', `CREATE DATABASE ${name}`);
      return url(name);
    },
    restart() {
      run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-m', 'fast', '-o', `-p ${port}`, 'restart']);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      started.delete(cluster);
      try {
        run('pg_ctl', ['-D', data, '-w', '-t', '120', '-m', 'immediate', 'stop']);
      } catch {
        // Already down: nothing to stop, the folder still goes.
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  started.add(cluster);
  return cluster;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
