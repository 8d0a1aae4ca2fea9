import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

describe('baton on PostgreSQL (CLI)', () => {
  let cluster: Cluster;
  let url: string;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('cli');
  });
  after(() => cluster.stop());

  const project = (env: Record<string, string> = {}) => {
    const dir = tempDir();
    return {
      dir,
      run: (args: string[], extra: Record<string, string> = {}, input?: string) =>
        baton(args, {
          cwd: dir,
          env: { BATON_ROOT: dir, BATON_STORE: url, ...env, ...extra },
          ...(input ? { input } : {}),
        }),
    };
  };

  it('refuses to work before migrate, names it, and migrate creates the tables once', () => {
    const { run } = project();
    const before = run(['get', 'a.json']);
    assert.equal(before.code, 8);
    assert.match(before.stderr, /no baton tables; run 'baton store migrate'/);
    assert.equal(before.stderr.trim().split('\n').length, 1);
    const migrate = run(['store', 'migrate']);
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.match(migrate.stdout, /schema version 0 -> \d+/);
    assert.match(run(['store', 'migrate']).stdout, /up to date/);
  });

  it('commands read and write the database, not files; mirrors stay local', () => {
    const { dir, run } = project({ BATON_PROJECT: 'cli-a' });
    assert.equal(run(['store', 'migrate']).code, 0);
    const key = '.claude/state/current-task.json';
    const init = run(['init', key, '--schema', 'eneo-task', '--arg', 'slug', 'x', '--arg', 'lane', 'fast']);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(run(['update', key, '.tdd_phase = "RED"']).code, 0);
    assert.equal(existsSync(join(dir, key)), false);
    assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'RED\n');
    assert.equal(run(['get', key, '.tdd_phase']).stdout, '"RED"\n');
    assert.match(run(['history', key]).stdout, /^r2\t.*\tupdate\t/);
    // Another project in the same database sees none of it.
    assert.equal(run(['get', key, '.slug'], { BATON_PROJECT: 'cli-b' }).stdout, '');
  });

  it('wrong password, missing database and refused connection are one-line errors (exit 8)', () => {
    const { run } = project();
    const name = new URL(url).pathname.slice(1);
    for (const [store, pattern] of [
      [cluster.url(name, { password: 'wrong-secret' }), /refused the login/],
      [cluster.url('missing_db'), /database "missing_db" does not exist/],
      ['postgres://u:p@127.0.0.1:1/db', /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/db/],
    ] as const) {
      const result = run(['get', 'a.json'], { BATON_STORE: store });
      assert.equal(result.code, 8, result.stderr);
      assert.match(result.stderr, pattern);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /wrong-secret/);
    }
  });

  it('export and import move documents with history from the file store to PostgreSQL and back', () => {
    const files = project({ BATON_STORE: '' });
    assert.equal(files.run(['init', 'notes.json', '--argjson', 'n', '0']).code, 0);
    for (let i = 0; i < 5; i++) assert.equal(files.run(['update', 'notes.json', '.n += 1']).code, 0);
    const dump = files.run(['store', 'export']);
    assert.equal(dump.code, 0, dump.stderr);
    const pg = project({ BATON_PROJECT: 'moved' });
    assert.equal(pg.run(['store', 'migrate']).code, 0);
    writeFileSync(join(pg.dir, 'dump.jsonl'), dump.stdout);
    const imported = pg.run(['store', 'import', 'dump.jsonl']);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stdout, 'imported 1 documents, 6 revisions\n');
    assert.equal(pg.run(['get', 'notes.json', '.n']).stdout, '5\n');
    assert.equal(pg.run(['store', 'import', 'dump.jsonl']).code, 1);
    const back = pg.run(['store', 'export']);
    const body = (text: string) => text.split('\n').slice(1).join('\n');
    assert.equal(body(back.stdout), body(dump.stdout));
    const again = project({ BATON_STORE: '' });
    assert.equal(again.run(['store', 'import', '-'], {}, back.stdout).code, 0);
    assert.equal(body(again.run(['store', 'export']).stdout), body(dump.stdout));
  });

  it('import confines keys on PostgreSQL as on files, and a refused line late in the file leaves nothing imported', () => {
    const files = project({ BATON_STORE: '' });
    assert.equal(files.run(['init', 'notes.json', '--argjson', 'n', '0']).code, 0);
    assert.equal(files.run(['update', 'notes.json', '.n += 1']).code, 0);
    const [header, line] = files.run(['store', 'export']).stdout.trim().split('\n') as [string, string];
    const pg = project({ BATON_PROJECT: 'confined' });
    assert.equal(pg.run(['store', 'migrate']).code, 0);
    const withKey = (key: string) => JSON.stringify({ ...(JSON.parse(line) as object), key });
    for (const [key, pattern] of [
      ['../../x.json', /escapes the project/],
      ['/etc/passwd', /not a relative path/],
      ['.baton/x.json', /\.baton\/ folder/],
      ['a/.baton/a.json.meta.json', /\.baton\/ folder/],
      ['.claude/settings.local.json', /baton state or its rules/],
    ] as const) {
      const r = pg.run(['store', 'import', '-'], {}, `${header}\n${withKey('good.json')}\n${withKey(key)}\n`);
      assert.notEqual(r.code, 0, key);
      assert.match(r.stderr, pattern, key);
      assert.match(r.stderr, /line 3 of the export: .*nothing was imported/, key);
    }
    assert.equal(pg.run(['store', 'export']).stdout.trim().split('\n').length, 1, 'no document in the database');
    assert.equal(pg.run(['store', 'import', '-'], {}, `${header}\n${withKey('good.json')}\n`).code, 0);
    assert.equal(pg.run(['get', 'good.json', '.n']).stdout, '1\n');
  });
});
