/**
 * Which server a hook or a second start believes in (serve/state.ts), in process on real files
 * and real listeners: serve.json is in the project, so an agent may have rewritten it, and only
 * a loopback server that answers /health with the pid serve.json names counts as running.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { probe, readServeFile, serverIdentity, servePaths, type ServeInfo } from '../../src/serve/state.js';
import { tempTree } from '../helpers/fixtures.js';

function plant(dir: string, text: string): void {
  mkdirSync(join(dir, '.baton'), { recursive: true });
  writeFileSync(servePaths(dir).file, text, { mode: 0o600 });
}

/** A real listener answering every request with `answer`; what it was asked is recorded. */
async function listener(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; asked: string[]; close: () => void }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => server.close(),
  };
}

describe('serve.json: which server is believed', () => {
  it('only a complete record of a loopback server is read; anything else means no server (hooks judge in process)', (t) => {
    const p = tempTree();
    t.after(p.cleanup);
    const good = {
      url: 'http://127.0.0.1:4000',
      pid: 42,
      token: 't',
      version: '1.0.0',
      build: '0123456789abcdef',
      ui: 'http://127.0.0.1:4000/ui?key=k',
    };
    assert.equal(readServeFile(p.dir), undefined, 'no serve.json');
    plant(p.dir, JSON.stringify(good));
    assert.deepEqual(readServeFile(p.dir), good);
    const { ui: _ui, ...withoutUi } = good;
    plant(p.dir, JSON.stringify(withoutUi));
    assert.deepEqual(readServeFile(p.dir), withoutUi, 'an older server wrote no ui');
    for (const [name, planted] of [
      ['another host', { ...good, url: 'http://attacker.example:4000' }],
      ['https, or a path after the port', { ...good, url: 'http://127.0.0.1:4000/x' }],
      ['a pid as text', { ...good, pid: '42' }],
      ['no token', { ...good, token: undefined }],
      ['no version', { ...good, version: 7 }],
      ['a build that is not text', { ...good, build: 7 }],
      ['a dashboard URL of another server', { ...good, ui: 'http://attacker.example/ui?key=k' }],
      ['a dashboard URL that is not text', { ...good, ui: 1 }],
    ] as const) {
      plant(p.dir, JSON.stringify(planted));
      assert.equal(readServeFile(p.dir), undefined, name);
    }
    plant(p.dir, '{"url": "http://127.0.0.1:4000", "pid"');
    assert.equal(readServeFile(p.dir), undefined, 'half-written');
  });

  it('probe: the version only when /health answers 200 with the pid serve.json names, the token sent', async (t) => {
    let health = (_req: IncomingMessage, res: ServerResponse) => res.end('');
    const server = await listener((req, res) => health(req, res));
    t.after(server.close);
    const info: ServeInfo = { url: server.url, pid: 42, token: 'secret', version: 'x' };

    health = (_req, res) => res.end(JSON.stringify({ version: '2.0.0', build: '0123456789abcdef', pid: 42 }));
    assert.equal(await probe(info), serverIdentity('2.0.0', '0123456789abcdef'));
    assert.notEqual(await probe(info), serverIdentity('2.0.0', 'fedcba9876543210'), 'another build of one version');
    // A server of before builds were told apart: another build to every client.
    health = (_req, res) => res.end(JSON.stringify({ version: '2.0.0', pid: 42 }));
    assert.equal(await probe(info), serverIdentity('2.0.0', undefined));
    assert.notEqual(await probe(info), serverIdentity('2.0.0', 'dev'));
    assert.deepEqual(server.asked.slice(0, 1), ['GET /health Bearer secret']);
    // Something else at that address (another process, or one an agent started): not this server.
    health = (_req, res) => res.end(JSON.stringify({ version: '2.0.0', pid: 43 }));
    assert.equal(await probe(info), undefined, 'another pid');
    health = (_req, res) => res.end(JSON.stringify({ pid: 42 }));
    assert.equal(await probe(info), undefined, 'no version');
    health = (_req, res) => res.end('<html>not baton</html>');
    assert.equal(await probe(info), undefined, 'not JSON');
    health = (_req, res) => res.writeHead(403).end(JSON.stringify({ version: '2.0.0', pid: 42 }));
    assert.equal(await probe(info), undefined, 'refused');
    // An answer past 4 KiB is not held whole: it cannot be a /health answer.
    health = (_req, res) => res.end(JSON.stringify({ version: '2.0.0', pid: 42, pad: 'x'.repeat(8192) }));
    assert.equal(await probe(info), undefined, 'too large');

    // The shutdown a new version sends an older server: any 200 is enough.
    health = (_req, res) => res.end('');
    assert.equal(await probe(info, '/shutdown', 'POST'), '');
    assert.equal(server.asked.at(-1), 'POST /shutdown Bearer secret');
    health = (_req, res) => res.writeHead(404).end('');
    assert.equal(await probe(info, '/shutdown', 'POST'), undefined);
  });

  it('probe: nothing listening, or a listener that never answers, is no server', async (t) => {
    const gone = await listener((_req, res) => res.end(''));
    gone.close();
    assert.equal(await probe({ url: gone.url, pid: 42, token: 't', version: 'x' }), undefined, 'closed port');
    const silent = await listener(() => {});
    t.after(silent.close);
    assert.equal(await probe({ url: silent.url, pid: 42, token: 't', version: 'x' }, '/health', 'GET', 50), undefined);
  });
});
