/**
 * The dashboard's server in process, over real HTTP on loopback: who may ask (the Host check, the
 * token in the query or the cookie), and each refusal a request can meet (a bad or escaping
 * document id or file, a file too large, a write when read-only, from another origin, not JSON,
 * too long), with nothing written. The page itself is driven in chromium by ui.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Board, openDoc } from '../../src/index.js';
import { browsableHost, isLoopback, isWildcard, startUi, type UiServer } from '../../src/ui/ui-server.js';
import { tempTree } from '../helpers/fixtures.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: { error?: { code: string; message: string } } & Record<string, unknown>;
}

/** A request with full control of its headers (a browser would not let us set Host). */
function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        let json = {};
        try {
          json = JSON.parse(body) as object;
        } catch {
          // an asset
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const tree = tempTree({
  'project/docs/plan.md': 'the plan\n',
  'project/docs/big.txt': 'x'.repeat(1024 * 1024 + 1),
  'outside/secret.txt': 'secret\n',
  'home/.claude/orchestrate/no-state/log.md': '',
});
const dir = join(tree.dir, 'project');
const home = join(tree.dir, 'home');
const env = { BATON_ROOT: dir, HOME: home };
const servers: UiServer[] = [];
const start = async (extra: { token?: string; allowWrites?: boolean; env?: Record<string, string> } = {}) => {
  const server = await startUi({
    root: dir,
    env: extra.env ?? env,
    host: '127.0.0.1',
    port: 0,
    token: extra.token,
    allowWrites: extra.allowWrites ?? false,
    writer: 'ui',
  });
  servers.push(server);
  return server;
};

before(async () => {
  const notes = openDoc('notes.json', { cwd: dir, env });
  await notes.init({ n: 1 });
  await notes.update('.n = 2');
  // broken.json has a sidecar, then its file is no longer JSON: listed as unreadable, not dropped.
  await openDoc('broken.json', { cwd: dir, env }).init({ a: 1 });
  writeFileSync(join(dir, 'broken.json'), '{not json');
  symlinkSync(join(tree.dir, 'outside', 'secret.txt'), join(dir, 'docs', 'link.txt'));
  mkdirSync(join(home, '.claude', 'orchestrate', 'escaped'), { recursive: true });
  symlinkSync(join(tree.dir, 'outside', 'secret.txt'), join(home, '.claude', 'orchestrate', 'escaped', 'state.md'));
});
after(async () => {
  for (const server of servers) await server.close();
  tree.cleanup();
});

describe('the dashboard server', () => {
  it('answers loopback requests naming its own host, and refuses any other Host header', async () => {
    const { url } = await start();
    const port = new URL(url).port;
    assert.equal((await ask(`${url}api/documents`)).status, 200);
    assert.equal((await ask(`${url}api/documents`, { headers: { Host: `localhost:${port}` } })).status, 200);
    const foreign = await ask(`${url}api/documents`, { headers: { Host: `evil.example:${port}` } });
    assert.equal(foreign.status, 401);
    assert.equal(foreign.json.error?.message, 'unexpected Host header');
  });

  it('with a token, refuses requests without it and lets in the query or the cookie the page got', async () => {
    const token = 'a-token-of-twenty-chars';
    const { url } = await start({ token });
    const base = url.slice(0, url.indexOf('?'));
    assert.equal(new URL(url).searchParams.get('token'), token);
    const bare = await ask(`${base}api/documents`);
    assert.equal(bare.status, 401);
    assert.match(bare.json.error?.message ?? '', /a valid token is required/);
    assert.equal((await ask(`${base}api/documents?token=wrong`)).status, 401);
    const page = await ask(url);
    assert.equal(page.status, 200);
    const cookie = String(page.headers['set-cookie']).split(';')[0] as string;
    assert.match(cookie, /^baton_ui_\d+=a-token-of-twenty-chars$/);
    assert.match(String(page.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
    assert.equal((await ask(`${base}app.js`, { headers: { Cookie: `other=1; ${cookie}` } })).status, 200);
    // A cookie that is not valid percent-encoding is no token.
    const name = cookie.split('=')[0] as string;
    assert.equal((await ask(`${base}app.js`, { headers: { Cookie: `${name}=%E0%A4%A` } })).status, 401);
  });

  it('lists documents, an unreadable one with its error, and serves the page with its headers', async () => {
    const { url } = await start();
    const listed = (await ask(`${url}api/documents`)).json.documents as { id: string; error?: string }[];
    assert.deepEqual(listed.map((d) => d.id).sort(), ['broken.json', 'goal:escaped', 'notes.json']);
    assert.ok(listed.find((d) => d.id === 'broken.json')?.error);
    const page = await ask(url);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match((await ask(`${url}app.css`)).headers['content-type'] as string, /^text\/css/);
  });

  it('refuses document ids that are empty, have control characters, lead out, or name no goal', async () => {
    const { url } = await start();
    const get = async (query: string) => {
      const answer = await ask(`${url}api/document?${query}`);
      return [answer.status, answer.json.error?.code];
    };
    assert.deepEqual(await get(''), [400, 'usage']);
    assert.deepEqual(await get('doc=a%0Ab.json'), [400, 'usage']);
    assert.deepEqual(await get(`doc=${'a'.repeat(4097)}`), [400, 'usage']);
    assert.deepEqual(await get('doc=..%2Fescape.json'), [403, 'unsafe_path']);
    assert.deepEqual(await get('doc=docs%2Flink.txt'), [403, 'unsafe_path']);
    assert.deepEqual(await get('doc=goal%3ANot%20A%20Slug'), [400, 'usage']);
    assert.deepEqual(await get('doc=none.json'), [404, 'not_found']);
    assert.deepEqual(await get('doc=deep%2Fnot%2Fthere.json'), [404, 'not_found']);
    assert.deepEqual(await get('doc=notes.json').then(() => 'ok'), 'ok');
    assert.equal((await ask(`${url}api/nothing`)).status, 404);
  });

  it('refuses a goal without state.md, one whose state.md leads out, and goals when HOME is unset', async () => {
    const { url } = await start();
    const goal = async (slug: string) => (await ask(`${url}api/document?doc=goal%3A${slug}`)).status;
    assert.equal(await goal('no-state'), 404);
    assert.equal(await goal('escaped'), 403);
    const homeless = await start({ env: { BATON_ROOT: dir } });
    const answer = await ask(`${homeless.url}api/document?doc=goal%3Aany`);
    assert.equal(answer.status, 404);
    assert.match(answer.json.error?.message ?? '', /HOME is not set/);
  });

  it('reads a project file bounded: not outside, not a folder, not past 1 MiB', async () => {
    const { url } = await start();
    const file = async (path: string) => {
      const answer = await ask(`${url}api/file?path=${encodeURIComponent(path)}`);
      return [answer.status, answer.json.error?.code ?? answer.json.text];
    };
    assert.deepEqual(await file('docs/plan.md'), [200, 'the plan\n']);
    assert.deepEqual(await file(''), [400, 'usage']);
    assert.deepEqual(await file('docs/plan.md\u0000'), [400, 'usage']);
    assert.deepEqual(await file('../outside/secret.txt'), [403, 'unsafe_path']);
    assert.deepEqual(await file('docs/link.txt'), [403, 'unsafe_path']);
    assert.deepEqual(await file('docs/none.md'), [404, 'not_found']);
    assert.deepEqual(await file('docs'), [400, 'usage']);
    assert.deepEqual(await file('docs/big.txt'), [413, 'too_large']);
  });

  it('pages history within its bounds and refuses a revision that is not a number', async () => {
    const { url } = await start();
    const revs = async (limit: string) =>
      ((await ask(`${url}api/history?doc=notes.json&limit=${limit}`)).json.entries as { rev: number }[]).map(
        (e) => e.rev,
      );
    assert.deepEqual(await revs('-5'), [2]);
    assert.deepEqual(await revs('junk'), [2, 1]);
    const diff = await ask(`${url}api/diff?doc=notes.json&rev=2`);
    assert.deepEqual(diff.json.old, [{ value: 1 }]);
    assert.deepEqual((diff.json.entry as { patch: unknown[] }).patch, [{ op: 'replace', path: '/n', value: 2 }]);
    assert.equal('before' in diff.json || 'after' in diff.json, false);
    assert.deepEqual((await ask(`${url}api/diff?doc=notes.json&rev=1`)).json.old, [null]);
    for (const rev of ['0', 'x', '1.5'])
      assert.equal((await ask(`${url}api/diff?doc=notes.json&rev=${rev}`)).json.error?.code, 'usage');
  });

  it('sends a revision of a large board as the values it changed, not the document', async () => {
    const board = new Board({ cwd: dir, env, path: join(dir, 'team', 'board.json') });
    for (let n = 0; n < 60; n++) await board.add({ id: `item-${n}`, title: `${n} `.padEnd(400, 'x') });
    await board.claim('item-7', 'agent-7');
    const { url } = await start();
    const entries = (await ask(`${url}api/history?doc=team%2Fboard.json&limit=1`)).json.entries as { rev: number }[];
    const diff = await ask(`${url}api/diff?doc=team%2Fboard.json&rev=${entries[0]!.rev}`);
    const patch = (diff.json.entry as { patch: { path: string }[] }).patch;
    assert.ok(patch.some((op) => op.path === '/items/item-7/claim'));
    assert.ok(diff.body.length < 2000, `${diff.body.length} bytes for one claim of a 24 KB board`);
  });

  it('refuses every write a read-only dashboard is sent, and writes nothing', async () => {
    const { url } = await start();
    const answer = await ask(`${url}api/revert`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ doc: 'notes.json', rev: 1 }),
    });
    assert.equal(answer.status, 403);
    assert.match(answer.json.error?.message ?? '', /baton ui --allow-writes/);
    assert.deepEqual(await openDoc('notes.json', { cwd: dir, env }).read(), { n: 2 });
  });

  it('with --allow-writes, takes only a JSON object from its own origin, bounded, and reverts', async () => {
    const { url } = await start({ allowWrites: true });
    const port = new URL(url).port;
    const revert = async (body: string, headers: Record<string, string> = {}) => {
      const answer = await ask(`${url}api/revert`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
      return [answer.status, answer.json.error?.code ?? answer.json.rev];
    };
    const valid = JSON.stringify({ doc: 'notes.json', rev: 1 });
    assert.deepEqual(await revert(valid, { 'Content-Type': 'text/plain' }), [403, 'forbidden']);
    assert.deepEqual(await revert(valid, { Origin: 'http://evil.example' }), [403, 'forbidden']);
    assert.deepEqual(await revert(valid, { Origin: 'null' }), [403, 'forbidden']);
    assert.deepEqual(await revert(JSON.stringify({ doc: 'notes.json', pad: 'x'.repeat(5000) })), [413, 'too_large']);
    assert.deepEqual(await revert('{not json'), [400, 'usage']);
    assert.deepEqual(await revert('[1]'), [400, 'usage']);
    assert.deepEqual(await revert(JSON.stringify({ doc: 7, rev: 1 })), [400, 'usage']);
    assert.deepEqual(await revert(JSON.stringify({ doc: 'goal:ship-it', rev: 1 })), [400, 'usage']);
    assert.deepEqual(await revert(JSON.stringify({ doc: 'notes.json', rev: 'one' })), [400, 'usage']);
    assert.deepEqual(await openDoc('notes.json', { cwd: dir, env }).read(), { n: 2 });
    assert.deepEqual(await revert(valid, { Origin: `http://127.0.0.1:${port}` }), [200, 3]);
    assert.deepEqual(await openDoc('notes.json', { cwd: dir, env }).read(), { n: 1 });
  });

  it('opens an event stream for live updates', async () => {
    const { url } = await start();
    const response = await fetch(`${url}api/events`);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^retry: 500/);
    await reader.cancel();
  });

  it('names a URL a browser can open for each listening address', () => {
    assert.equal(browsableHost('0.0.0.0'), '127.0.0.1');
    assert.equal(browsableHost('::'), '[::1]');
    assert.equal(browsableHost('::1'), '[::1]');
    assert.equal(browsableHost('[::1]'), '[::1]');
    assert.equal(browsableHost('10.1.2.3'), '10.1.2.3');
    assert.ok(isWildcard('[::]') && !isWildcard('127.0.0.1'));
    assert.ok(isLoopback('127.9.9.9') && isLoopback('localhost') && !isLoopback('10.0.0.1'));
  });
});
