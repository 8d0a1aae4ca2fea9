/**
 * Claims raced by real processes: 1,000 rounds of 8 claimant processes on one item, on the file
 * store and on PostgreSQL (each claimant its own connection: 8 machines), exactly one winner every
 * round and no update lost; and a claimant stopped with SIGSTOP whose lease runs out is taken over,
 * its late done refused. No wall-clock limit: the rounds take what the machine gives them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Board } from '../../src/board/board.js';
import { createPostgresStore, migratePostgres, type PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

const CLAIMANT = join(import.meta.dirname, 'claimant.ts');
const ROUNDS = 1000;
const RACERS = 8;

interface Claimant {
  name: string;
  child: ChildProcess;
  send(line: string): void;
  /** The next line this claimant prints that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  close(): Promise<void>;
}

function claimant(options: { dir: string; name: string; lease: number; url?: string; project?: string }): Claimant {
  const child = spawn(process.execPath, ['--import', 'tsx', CLAIMANT, JSON.stringify(options)], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  let buffer = '';
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
    }
    for (const wait of [...waiting]) {
      const index = lines.findIndex((line) => line.startsWith(wait.prefix));
      if (index < 0) continue;
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(lines.splice(index, 1)[0] as string);
    }
  });
  return {
    name: options.name,
    child,
    send: (line) => child.stdin.write(`${line}\n`),
    line: (prefix) =>
      new Promise((resolve, reject) => {
        const index = lines.findIndex((line) => line.startsWith(prefix));
        if (index >= 0) return resolve(lines.splice(index, 1)[0] as string);
        waiting.push({ prefix, resolve });
        void exited.then(() => reject(new Error(`${options.name} exited before printing '${prefix}'`)));
      }),
    close: async () => {
      child.stdin.end('exit\n');
      await exited;
    },
  };
}

interface Place {
  dir: string;
  board: Board;
  url?: string;
  project?: string;
}

/** Every round: all racers claim x at once; the one winner finishes it; the board opens it again. */
async function race(place: Place): Promise<void> {
  const racers = Array.from({ length: RACERS }, (_, i) =>
    claimant({ dir: place.dir, name: `m${i}`, lease: 600, ...pgOptions(place) }),
  );
  try {
    await Promise.all(racers.map((racer) => racer.line('ready')));
    const claimsBefore = (await place.board.current()).claims;
    let wins = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const racer of racers) racer.send(`claim ${round}`);
      const answers = await Promise.all(racers.map((racer) => racer.line(`${round} `)));
      const winners = racers.filter((_, i) => / won /.test(answers[i] as string));
      assert.equal(winners.length, 1, `round ${round}: ${answers.join(', ')}`);
      const winner = winners[0] as Claimant;
      assert.equal(await winner.line(`${round} `), `${round} done`, `round ${round}: the winner's done`);
      const item = (await place.board.current()).items.x!;
      assert.deepEqual([item.status, item.done_by], ['done', winner.name], `round ${round}`);
      wins++;
      await place.board.reopen('x');
    }
    // Every claim that won is counted once on the board: not one commit was lost.
    assert.equal((await place.board.current()).claims - claimsBefore, wins);
    assert.equal(wins, ROUNDS);
  } finally {
    await Promise.all(racers.map((racer) => racer.close()));
  }
}

/** A claimant stopped mid-item is taken over once its lease runs out, and its late done is refused. */
async function stalled(place: Place): Promise<void> {
  await place.board.reopen('x');
  const sleeper = claimant({ dir: place.dir, name: 'sleeper', lease: 1, ...pgOptions(place) });
  const taker = claimant({ dir: place.dir, name: 'taker', lease: 600, ...pgOptions(place) });
  try {
    await Promise.all([sleeper.line('ready'), taker.line('ready')]);
    sleeper.send('claim hold');
    assert.match(await sleeper.line('hold '), /^hold won \d+$/);
    sleeper.child.kill('SIGSTOP');
    // The taker loses while the lease holds and wins once it ran out: however long the machine takes.
    for (let round = 1; ; round++) {
      taker.send(`claim hold-${round}`);
      if (/ won /.test(await taker.line(`hold-${round} `))) break;
      await sleep(100);
    }
    // The sleeper wakes with its done already on stdin: the store refuses it, the taker's stands.
    sleeper.send('done');
    sleeper.child.kill('SIGCONT');
    assert.equal(await sleeper.line('done '), 'done refused conflict');
    taker.send('done');
    assert.equal(await taker.line('done '), 'done ok');
    const item = (await place.board.current()).items.x!;
    assert.deepEqual([item.status, item.done_by], ['done', 'taker']);
  } finally {
    sleeper.child.kill('SIGCONT');
    await Promise.all([sleeper.close(), taker.close()]);
  }
}

function pgOptions(place: Place): { url?: string; project?: string } {
  return place.url ? { url: place.url, project: place.project ?? '' } : {};
}

describe('claims raced by real processes: file store', () => {
  let place: Place;
  let cleanup: () => void;
  before(async () => {
    const tree = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n' });
    cleanup = tree.cleanup;
    place = { dir: tree.dir, board: new Board({ cwd: tree.dir, env: {} }) };
    await place.board.add({ id: 'x', title: 'the item everyone wants' });
  });
  after(() => cleanup());

  it(`${ROUNDS} rounds of ${RACERS} racing claimant processes: exactly one winner each round, 0 lost updates`, () =>
    race(place));
  it('a SIGSTOPped claimant whose lease expires is taken over and its late done refused', () => stalled(place));
});

describe('claims raced by real processes: PostgreSQL, each claimant a machine of its own', () => {
  let cluster: Cluster;
  let store: PostgresStore;
  let place: Place;
  let cleanup: () => void;
  before(async () => {
    cluster = await startCluster();
    const url = await cluster.createDatabase('board');
    await migratePostgres(url);
    const tree = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n' });
    cleanup = tree.cleanup;
    store = await createPostgresStore({ url, root: tree.dir, project: 'board' });
    place = { dir: tree.dir, url, project: 'board', board: new Board({ cwd: tree.dir, env: {}, store }) };
    await place.board.add({ id: 'x', title: 'the item everyone wants' });
  });
  after(async () => {
    await store.close();
    cluster.stop();
    cleanup();
  });

  it(`${ROUNDS} rounds of ${RACERS} racing claimant processes: exactly one winner each round, 0 lost updates`, () =>
    race(place));
  it('a SIGSTOPped claimant whose lease expires is taken over and its late done refused', () => stalled(place));
});
