import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Doc } from '../../src/doc/doc.js';
import { createPostgresStore, migratePostgres, type PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

const CLIENT = join(import.meta.dirname, 'client.ts');

interface Outcome {
  acked: string[];
  failed: string[];
}

function client(mode: 'update' | 'hold', options: Record<string, unknown>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLIENT, mode, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Acknowledgements seen so far, across all clients. */
let acks = 0;

async function finish(child: ChildProcess): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    acks += chunk.toString().split('\n').length - 1;
  });
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  return { acked: stdout.split('\n').filter(Boolean), failed: stderr.split('\n').filter(Boolean) };
}

describe('PostgreSQL store under load', () => {
  let cluster: Cluster;
  let url: string;
  let store: PostgresStore;
  const root = tempDir();
  let n = 0;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('load');
    await migratePostgres(url);
    store = await createPostgresStore({ url, root, project: 'load' });
  });
  after(async () => {
    await store.close();
    cluster.stop();
  });

  /** 8 client processes, 25 concurrent writers each, on one new document. */
  async function load(key: string, during?: (firstAck: Promise<void>) => Promise<void>): Promise<Outcome> {
    acks = 0;
    await new Doc(store, key, root).init({ ids: [], n: 0 });
    const children = Array.from({ length: 8 }, (_, i) =>
      client('update', { url, root, project: 'load', key, name: `p${i}`, writers: 25 }),
    );
    const firstAck = new Promise<void>((resolve) => children[0]?.stdout?.once('data', () => resolve()));
    const outcomes = Promise.all(children.map(finish));
    await during?.(firstAck);
    const all = await outcomes;
    return { acked: all.flatMap((o) => o.acked), failed: all.flatMap((o) => o.failed) };
  }

  /** What a reader finds: every id once, a counter that agrees, one revision per applied update. */
  async function check(key: string): Promise<string[]> {
    const doc = new Doc(store, key, root);
    const body = (await doc.read()) as { ids: string[]; n: number };
    assert.equal(new Set(body.ids).size, body.ids.length, 'an update was applied twice');
    assert.equal(body.n, body.ids.length, 'an update was half applied');
    const [last] = await doc.history({ limit: 1 });
    assert.equal(last?.rev, body.ids.length + 1);
    return body.ids;
  }

  it('200 concurrent writers from 8 processes on one document lose nothing', async () => {
    const key = `docs/load-${++n}.json`;
    const { acked, failed } = await load(key);
    assert.deepEqual(failed, []);
    assert.equal(acked.length, 200);
    assert.deepEqual((await check(key)).sort(), acked.sort());
  });

  it('a server restart mid-load keeps every acknowledged write and half-applies none', async () => {
    const key = `docs/load-${++n}.json`;
    let before = 0;
    const { acked, failed } = await load(key, async (firstAck) => {
      await firstAck;
      before = acks;
      cluster.restart();
    });
    assert.ok(acks > before, 'the restart came in the middle of the load');
    const ids = await check(key);
    for (const id of acked) assert.ok(ids.includes(id), `acknowledged ${id} is missing`);
    // A write that failed was reported as such, with a BatonError naming the cause.
    for (const line of failed) assert.match(line, /^p\d-\d+ io: /);
    assert.equal(acked.length + failed.length, 200);
  });

  it('a client killed mid-transaction leaves nothing and does not block the next writer', async () => {
    const key = `docs/killed-${++n}.json`;
    const doc = new Doc(store, key, root);
    await doc.init({ ids: [], n: 0 });
    const holder = client('hold', { url, root, project: 'load', key });
    await new Promise<void>((resolve) => holder.stdout?.once('data', () => resolve()));
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    await doc.update('.ids += ["after"] | .n += 1');
    assert.deepEqual(await check(key), ['after']);
  });
});
