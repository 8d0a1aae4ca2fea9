import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isBatonError } from '../../src/core/errors.js';
import { openDoc } from '../../src/doc/open.js';
import { migratePostgres } from '../../src/stores/postgres/postgres-store.js';
import { baton, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('choosing the store', () => {
  it('BATON_STORE, else store in baton.config.json, else the file store; the env wins over the config', async (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const open = (env: Record<string, string> = {}) =>
      openDoc('d.json', { cwd: tree.dir, env: { BATON_ROOT: tree.dir, ...env } });
    assert.equal(open().store.kind, 'file');
    assert.equal(open({ BATON_STORE: 'memory:' }).store.kind, 'memory');
    writeFileSync(join(tree.dir, 'baton.config.json'), '{"store": "memory:"}');
    assert.equal(open().store.kind, 'memory');
    assert.equal(open({ BATON_STORE: 'file:' }).store.kind, 'file');
    assert.equal(
      openDoc('d.json', { cwd: tree.dir, env: { BATON_ROOT: tree.dir }, store: 'file:' }).store.kind,
      'file',
    );
  });

  it('memory: is one store per process, and writes nothing but mirror files to disk', async (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const open = () => openDoc('docs/d.json', { cwd: tree.dir, env: { BATON_ROOT: tree.dir, BATON_STORE: 'memory:' } });
    await open().init({ n: 1 });
    await open().update('.n += 1');
    assert.deepEqual(await open().read(), { n: 2 });
    assert.deepEqual(readdirSync(tree.dir), []);
  });

  it('an unknown scheme is a usage error naming the accepted ones, and never echoes the URL', (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    assert.throws(
      () => openDoc('d.json', { cwd: tree.dir, env: { BATON_ROOT: tree.dir, BATON_STORE: 'redis://u:secret@h/0' } }),
      (error: unknown) =>
        isBatonError(error, 'usage') &&
        /unknown store 'redis:' \(from --store or BATON_STORE\).*file:.*memory:.*postgres:\/\//.test(error.message) &&
        !error.message.includes('secret'),
    );
    const cli = baton(['--store', 'mysql://root:hunter2@db/x', 'get', 'd.json'], { cwd: tree.dir });
    assert.equal(cli.code, 2);
    assert.deepEqual(messageLines(cli.stderr).length, 1);
    assert.match(cli.stderr, /^baton get: unknown store 'mysql:' \(from --store or BATON_STORE\); use file:/);
    assert.doesNotMatch(cli.stderr, /hunter2/);
    const config = baton(['get', 'd.json'], { cwd: tree.dir, env: { BATON_ROOT: tree.dir } });
    assert.equal(config.code, 0);
    writeFileSync(join(tree.dir, 'baton.config.json'), '{"store": "file:/elsewhere"}');
    const path = baton(['get', 'd.json'], { cwd: tree.dir, env: { BATON_ROOT: tree.dir } });
    assert.equal(path.code, 2);
    assert.match(path.stderr, /a file store takes no path.*\(from store in baton\.config\.json\)/);
  });

  it('--store needs a value, and goes before the command', (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const missing = baton(['--store'], { cwd: tree.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^baton: --store needs a URL/);
    assert.equal(baton(['--store=memory:', 'get', 'd.json'], { cwd: tree.dir }).code, 0);
    assert.match(baton(['--help'], { cwd: tree.dir }).stdout, /--store URL/);
  });

  it('the doctor asks the chosen store: one without checks of its own says so', (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const report = baton(['--store', 'memory:', 'doctor'], { cwd: tree.dir, env: { BATON_ROOT: tree.dir } });
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /^ok +the memory store has no checks of its own/m);
  });

  it('a shared store holds only documents inside the project', (t) => {
    const tree = tempTree({ 'project/.keep': '', 'elsewhere/.keep': '' });
    t.after(tree.cleanup);
    const env = { BATON_ROOT: join(tree.dir, 'project'), BATON_STORE: 'memory:' };
    assert.throws(
      () => openDoc(join(tree.dir, 'elsewhere', 'd.json'), { cwd: join(tree.dir, 'project'), env }),
      (error: unknown) => isBatonError(error, 'unsafe_path') && /outside the project/.test(error.message),
    );
  });
});

describe('every CLI command on PostgreSQL', () => {
  let cluster: Cluster;
  let url: string;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('open');
    await migratePostgres(url);
  });
  after(() => cluster.stop());

  it('--store, BATON_STORE and store in baton.config.json reach the same documents; nothing but mirrors on disk', (t) => {
    const tree = tempTree();
    t.after(tree.cleanup);
    const env = { BATON_ROOT: tree.dir, BATON_PROJECT: 'open-test' };
    const init = baton(
      [
        '--store',
        url,
        'init',
        'state/task.json',
        '--schema',
        'eneo-task',
        '--arg',
        'slug',
        's',
        '--arg',
        'lane',
        'fast',
      ],
      { cwd: tree.dir, env },
    );
    assert.equal(init.code, 0, init.stderr);
    const update = baton(['update', 'state/task.json', '.tdd_phase = "RED"'], {
      cwd: tree.dir,
      env: { ...env, BATON_STORE: url },
    });
    assert.equal(update.code, 0, update.stderr);
    writeFileSync(join(tree.dir, 'baton.config.json'), JSON.stringify({ store: url, project: 'open-test' }));
    const get = baton(['get', 'state/task.json', '.tdd_phase', '-r'], { cwd: tree.dir, env: { BATON_ROOT: tree.dir } });
    assert.equal(get.stdout, 'RED\n', get.stderr);
    assert.deepEqual(readdirSync(join(tree.dir, 'state')), ['phase']);
    assert.equal(existsSync(join(tree.dir, 'state', 'task.json')), false);
    // Another project id in the same database sees nothing.
    const other = baton(['get', 'state/task.json'], {
      cwd: tree.dir,
      env: { BATON_ROOT: tree.dir, BATON_PROJECT: 'other' },
    });
    assert.equal(other.stdout, '');
  });
});
