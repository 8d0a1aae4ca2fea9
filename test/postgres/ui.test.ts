import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { startCluster, type Cluster } from '../helpers/postgres-cluster.js';

/** `baton ui` in `cwd`; resolves with its URL once it listens, and a stop function. */
function serve(cwd: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'ui'], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line)
        resolve({
          url: line,
          stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))),
        });
    });
    child.once('exit', (code) => reject(new Error(`baton ui exited ${code}: ${err}`)));
  });
}

describe('baton ui on PostgreSQL', () => {
  let cluster: Cluster;
  let url: string;
  before(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('ui');
  });
  after(() => cluster.stop());

  it('lists and shows a document that lives only in the database, from a checkout that never wrote it', async () => {
    const machine = () => {
      const dir = join(tempDir(), 'checkout');
      mkdirSync(dir);
      writeFileSync(join(dir, 'baton.config.json'), '{"project": "team/ui"}\n');
      return { dir, env: { BATON_ROOT: dir, BATON_STORE: url } };
    };
    const a = machine();
    const b = machine();
    const run = (args: string[]) => baton(args, { cwd: a.dir, env: a.env });
    assert.equal(run(['store', 'migrate']).code, 0);
    const init = run(['init', 'notes/plan.json', '--arg', 'title', 'from machine A']);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(run(['update', 'notes/plan.json', '.step = 2']).code, 0);

    const served = await serve(b.dir, b.env);
    try {
      const api = async (path: string) => {
        const response = await fetch(new URL(path, served.url));
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const listed = await api('/api/documents');
      assert.equal(listed.status, 200);
      const documents = listed.body.documents as { id: string; title: string }[];
      assert.deepEqual(
        documents.map((d) => d.id),
        ['notes/plan.json'],
      );
      const shown = await api('/api/document?doc=notes%2Fplan.json');
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.deepEqual(shown.body.value, { title: 'from machine A', step: 2 });
      const history = await api('/api/history?doc=notes%2Fplan.json');
      assert.deepEqual(
        (history.body.entries as { rev: number }[]).map((e) => e.rev),
        [2, 1],
      );
      assert.equal((await api('/api/document?doc=notes%2Fnone.json')).status, 404);
      assert.equal((await api('/api/document?doc=..%2Fescape.json')).status, 403);
    } finally {
      await served.stop();
    }
  });
  it("shows the work board's holders from the database, and follows a claim made on another machine", async () => {
    const dir = join(tempDir(), 'checkout');
    mkdirSync(dir);
    writeFileSync(join(dir, 'baton.config.json'), '{"project": "team/board"}\n');
    const other = join(tempDir(), 'checkout');
    mkdirSync(other);
    writeFileSync(join(other, 'baton.config.json'), '{"project": "team/board"}\n');
    const work = (...args: string[]) => {
      const result = baton(['work', ...args], { cwd: dir, env: { BATON_ROOT: dir, BATON_STORE: url } });
      assert.equal(result.code, 0, result.stderr);
    };
    work('add', 'api', '--title', 'the API', '--paths', 'src/api/**');
    work('add', 'ui', '--title', 'the UI', '--after', 'api');
    work('claim', 'api', '--as', 'agent-1');

    const served = await serve(other, { BATON_ROOT: other, BATON_STORE: url });
    const events = await fetch(new URL('/api/events', served.url));
    const reader = events.body!.getReader();
    try {
      const api = async (path: string) =>
        (await (await fetch(new URL(path, served.url))).json()) as Record<string, any>;
      const BOARD = '.claude%2Fstate%2Fboard.json';
      const listed = (await api('/api/documents')).documents as { id: string; mtime: number }[];
      assert.deepEqual(listed, [
        {
          id: '.claude/state/board.json',
          kind: 'board',
          title: '.claude/state/board.json',
          mtime: listed[0]!.mtime,
          status: '0/2 done · 1 held',
        },
      ]);
      const items = async () => (await api(`/api/document?doc=${BOARD}`)).board.items as Record<string, unknown>[];
      const first = await items();
      assert.deepEqual(
        first.map((item) => [item.id, item.state, item.holder ?? null]),
        [
          ['api', 'held', 'agent-1'],
          ['ui', 'waiting', null],
        ],
      );
      // A commit on the other machine changes no file here: the listing's rescan sends the change.
      work('release', 'api', '--as', 'agent-1');
      work('claim', 'api', '--as', 'agent-2');
      // The page refetches on a change event; the event must come, and what is fetched then is new.
      let buffered = '';
      while (!buffered.includes('event: change')) {
        const { value, done } = await reader.read();
        assert.ok(!done, 'the event stream ended');
        buffered += new TextDecoder().decode(value);
      }
      assert.equal((await items()).find((item) => item.id === 'api')?.holder, 'agent-2');
    } finally {
      await reader.cancel();
      await served.stop();
    }
  });
});
