import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Doc } from '../../src/doc/doc.js';
import {
  createPostgresStore,
  defaultProjectId,
  migratePostgres,
  normaliseRemote,
} from '../../src/stores/postgres/postgres-store.js';
import { baton } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('PostgreSQL projects', () => {
  let cluster: Cluster;
  let url: string;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('projects');
    await migratePostgres(url);
  });
  after(() => cluster.stop());

  it('two projects in one database cannot see each other’s documents', async () => {
    const root = tempDir();
    const a = await createPostgresStore({ url, root, project: 'team/a' });
    const b = await createPostgresStore({ url, root, project: 'team/b' });
    const key = '.claude/state/current-task.json';
    await new Doc(a, key, root).init({ owner: 'a' });
    assert.equal(await new Doc(b, key, root).read(), undefined);
    assert.deepEqual(await new Doc(b, key, root).history(), []);
    await new Doc(b, key, root).init({ owner: 'b' });
    await new Doc(b, key, root).update('.n = 1');
    assert.deepEqual(await new Doc(a, key, root).read(), { owner: 'a' });
    assert.deepEqual(
      (await new Doc(a, key, root).history()).map((e) => e.rev),
      [1],
    );
    assert.deepEqual(await a.keys(), [key]);
    await a.close();
    await b.close();
  });

  it('a watch hears commits made through another connection (another machine), and stops when told', async () => {
    const root = tempDir();
    const here = await createPostgresStore({ url, root, project: 'team/watch' });
    const there = await createPostgresStore({ url, root, project: 'team/watch' });
    const key = 'watched.json';
    const writer = new Doc(there, key, root);
    await writer.init({ n: 0 });
    const seen: unknown[] = [];
    const stop = new Doc(here, key, root).watch((doc) => seen.push(doc));
    // A commit before the watch's first poll is not reported (it is the watch's starting point), so
    // the other machine commits until one is heard.
    let n = 0;
    while (seen.length === 0) {
      await writer.update('.n = $n', { n: ++n });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((seen[0] as { n: number }).n > 0, true);
    stop();
    const count = seen.length;
    await writer.update('.n = -1');
    // Its notification arrives at once and a poll interval passes: a watch that did not stop would
    // have reported this commit.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(seen.length, count);
    await here.close();
    await there.close();
  });

  it('a commit is announced on the commits channel after it lands, for listeners on other machines', async () => {
    const root = tempDir();
    const store = await createPostgresStore({ url, root, project: 'team/notify' });
    const pg = (await import('pg')).default;
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    try {
      await listener.query('LISTEN baton_commits');
      // Bounded generously, so a missing notification fails the test instead of hanging it.
      let timer: NodeJS.Timeout | undefined;
      const heard = new Promise<string>((resolve, reject) => {
        listener.on('notification', (message) => resolve(message.payload ?? ''));
        timer = setTimeout(() => reject(new Error('no notification on baton_commits')), 60_000);
      }).finally(() => clearTimeout(timer));
      const doc = new Doc(store, 'announced.json', root);
      await doc.init({ n: 0 });
      const payload = await heard;
      // The payload names the key without spelling it (fixed length, whatever the key's).
      assert.match(payload, /^[A-Za-z0-9_-]{43}$/);
      // The document is durable by the time anyone hears of it.
      const other = await createPostgresStore({ url, root, project: 'team/notify' });
      assert.deepEqual(await new Doc(other, 'announced.json', root).read(), { n: 0 });
      await other.close();
    } finally {
      await listener.end();
      await store.close();
    }
  });

  it("the config's project scopes documents when BATON_STORE names the store: two machines see the same documents", () => {
    // Two checkouts in different folders and no git remote: only the config makes them one project.
    const machine = () => {
      const dir = join(tempDir(), 'checkout');
      mkdirSync(dir);
      writeFileSync(join(dir, 'baton.config.json'), '{"project": "team/shared"}\n');
      return (args: string[]) => baton(args, { cwd: dir, env: { BATON_ROOT: dir, BATON_STORE: url } });
    };
    const a = machine();
    const b = machine();
    const init = a(['init', 'notes.json', '--arg', 'from', 'a']);
    assert.equal(init.code, 0, init.stderr);
    const read = b(['get', 'notes.json', '.from']);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, '"a"\n');
  });

  it('the default id is the git remote, the same for every clone and worktree of a repository', () => {
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
    const one = join(tempDir(), 'app');
    const two = join(tempDir(), 'app');
    mkdirSync(one);
    mkdirSync(two);
    git(one, 'init', '-q');
    git(one, 'remote', 'add', 'origin', 'git@github.com:Org/app.git');
    git(two, 'init', '-q');
    git(two, 'remote', 'add', 'origin', 'https://user:token@github.com/Org/app/');
    assert.equal(defaultProjectId(one), 'github.com/Org/app');
    assert.equal(defaultProjectId(two), 'github.com/Org/app');
  });

  it('without a remote it is the real path of the root, never the folder name alone', () => {
    const one = join(tempDir(), 'app');
    const two = join(tempDir(), 'app');
    mkdirSync(one);
    mkdirSync(two);
    assert.notEqual(defaultProjectId(one), defaultProjectId(two));
    assert.equal(defaultProjectId(one), realpathSync(one));
    const link = join(tempDir(), 'link');
    symlinkSync(one, link);
    assert.equal(defaultProjectId(link), defaultProjectId(one));
  });

  it('normalises remote URLs of one repository to one id', () => {
    for (const remote of [
      'git@github.com:Org/app.git',
      'ssh://git@GitHub.com:22/Org/app.git',
      'https://github.com/Org/app',
      'https://x-access-token:abc@github.com/Org/app.git/',
    ])
      assert.equal(normaliseRemote(remote), 'github.com/Org/app', remote);
    assert.equal(normaliseRemote('/srv/git/app.git'), '/srv/git/app');
    assert.equal(normaliseRemote('file:///srv/git/app.git'), '/srv/git/app');
    assert.notEqual(normaliseRemote('git@gitlab.com:Org/app.git'), normaliseRemote('git@github.com:Org/app.git'));
  });
});
