import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baton } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';
import { decision, eneoProject, type EneoProject } from '../harness/helpers.js';

// Two machines: two project folders sharing one project in one database. Each gate must judge by
// the shared document, not by the files the other machine's commits never reached.
describe('hooks on a PostgreSQL store', () => {
  let cluster: Cluster;
  let url: string;
  const projects: EneoProject[] = [];
  const machine = () => {
    const p = eneoProject({}, { profile: 'eneo', store: url, project: 'shared-hooks' });
    projects.push(p);
    return p;
  };
  const writeTest = (p: EneoProject) =>
    decision(
      p.hook('PreToolUse', {
        tool_name: 'Write',
        tool_input: { file_path: join(p.dir, 'tests/test_x.py'), content: '' },
      }),
    );
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('hooks');
    const migrate = baton(['store', 'migrate'], { cwd: tmpdir(), env: { BATON_STORE: url } });
    assert.equal(migrate.code, 0, migrate.stderr);
  });
  after(() => {
    for (const p of projects) p.cleanup();
    cluster.stop();
  });

  it('the PreToolUse gate on one machine follows the phase another machine committed', () => {
    const a = machine();
    const b = machine();
    assert.equal(a.task(['init', '--', 'demo', 'deep', '4', 'none', 'appends']).code, 0);
    assert.equal(a.task(['phase-set', 'GREEN']).code, 0);
    assert.equal(existsSync(join(b.dir, '.claude/state/phase')), false);
    assert.equal(writeTest(b).kind, 'deny');
    assert.equal(readFileSync(join(b.dir, '.claude/state/phase'), 'utf8').trim(), 'GREEN');
    // The way back: a stale GREEN mirror on b must not keep denying once a has left GREEN.
    assert.equal(a.task(['phase-set', 'REFACTOR']).code, 0);
    assert.equal(writeTest(b).kind, 'allow');
    assert.equal(readFileSync(join(b.dir, '.claude/state/phase'), 'utf8').trim(), 'REFACTOR');
  });

  it('with the store unreachable, a gate judges by the local mirror and says so', () => {
    const gone = 'postgres://nobody:wrong@127.0.0.1:1/none';
    const p = eneoProject({ '.claude/state/phase': 'GREEN\n' }, { profile: 'eneo', store: gone, project: 'gone' });
    projects.push(p);
    const r = p.hook('PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'tests/test_x.py'), content: '' },
    });
    assert.equal(r.code, 0);
    assert.equal(decision(r).kind, 'deny');
    const message = (JSON.parse(r.stdout) as { systemMessage?: string }).systemMessage ?? '';
    assert.match(message, /shared store could not be read \(cannot connect to PostgreSQL at 127\.0\.0\.1:1/);
    assert.match(message, /judged by this machine's files, which may be stale/);
    assert.equal(readFileSync(join(p.dir, '.claude/state/phase'), 'utf8'), 'GREEN\n');
  });

  it('an event the profile ignores opens no connection, even with the server gone', () => {
    const p = machine();
    const r = baton(['hook', 'Notification'], {
      cwd: p.dir,
      env: { ...p.env, BATON_STORE: 'postgres://nobody:wrong@127.0.0.1:1/none' },
      input: '{}',
    });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
  });
});
