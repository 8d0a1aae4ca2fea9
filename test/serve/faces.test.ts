/**
 * The other faces of `baton serve`, over real HTTP from the real process: the MCP server over
 * streamable HTTP (the SDK's own client) and the dashboard (a real chromium, and raw requests a
 * browser would not let us shape). Who may ask each, and the walk-arounds a local web page or
 * process would try.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium, type Browser } from 'playwright-core';
import { baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { serveFile, startServe, type Server } from './serve-process.js';
import { TOOL_NAMES } from '../mcp/tool-names.js';

const NOTES = 'notes.json';

function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function mcpClient(url: string, headers: Record<string, string>, name = 'http-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

function history(dir: string): { rev: number; writer: string }[] {
  const result = baton(['history', NOTES, '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { rev: number; writer: string });
}

describe('baton serve: MCP over streamable HTTP and the dashboard', () => {
  const tree = tempTree({ 'baton.config.json': '{}' });
  const dir = tree.dir;
  let server: Server;
  let base: string;

  before(async () => {
    const init = baton(['init', NOTES, '--arg', 'owner', 'ada'], { cwd: dir });
    assert.equal(init.code, 0, init.stderr);
    server = await startServe(dir, ['--port', '0', '--allow-writes']);
    base = serveFile(dir).url;
  });

  after(async () => {
    await server?.stop();
    tree.cleanup();
  });

  it('serves the MCP tools over streamable HTTP with the token: same tools, same writer rule as baton mcp', async () => {
    const { token } = serveFile(dir);
    const client = await mcpClient(base, { Authorization: `Bearer ${token}` });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(names.sort(), TOOL_NAMES);
      const update = (await client.callTool({
        name: 'update',
        arguments: { file: NOTES, expr: '.todo += [$t]', args: { t: 'over http' }, writer: 'impl' },
      })) as CallToolResult;
      assert.equal(update.isError, undefined, JSON.stringify(update));
      const got = (await client.callTool({ name: 'get', arguments: { file: NOTES, expr: '.todo' } })) as CallToolResult;
      assert.deepEqual(JSON.parse((got.content[0] as { text: string }).text), [['over http']]);
      // The writer is the client's name, the agent's only a suffix: as on stdio.
      assert.equal(history(dir)[0]!.writer, 'mcp:http-agent/impl');
      const bad = (await client.callTool({
        name: 'update',
        arguments: { file: NOTES, expr: '.x = (1, 2)' },
      })) as CallToolResult;
      assert.equal(bad.isError, true);
      assert.match((bad.content[0] as { text: string }).text, /^\w+: /);
    } finally {
      await client.close();
    }
  });

  it('refuses an MCP client without the token, with a wrong one, or from a web page, and writes nothing', async () => {
    const { token } = serveFile(dir);
    const revs = history(dir).length;
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer not-the-token' },
      { Authorization: `Bearer ${token}`, Origin: 'http://attacker.example' },
    ];
    for (const headers of attempts) {
      await assert.rejects(mcpClient(base, headers), /403|Forbidden|token/i, JSON.stringify(headers));
      const direct = await raw(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'set', arguments: { file: NOTES, path: 'owner', value: 'mallory' } },
        }),
      });
      assert.equal(direct.status, 403);
    }
    assert.equal(history(dir).length, revs);
  });

  it('lets the dashboard in only through the printed URL: the key is exchanged for an HttpOnly, SameSite=Strict cookie', async () => {
    const { ui } = serveFile(dir);
    assert.equal(server.ui, ui);
    assert.match(ui, new RegExp(`^${base}/ui\\?key=[\\w-]{32,}$`));
    // Without the cookie: no page, no data, not even with the hooks' bearer token.
    for (const path of ['/', '/app.js', '/api/documents', '/api/events', `/api/document?doc=${NOTES}`]) {
      const refused = await raw(`${base}${path}`, { headers: { Authorization: `Bearer ${serveFile(dir).token}` } });
      assert.equal(refused.status, 403, path);
      assert.doesNotMatch(refused.body, /ada/);
    }
    assert.equal((await raw(`${base}/ui?key=wrong-key-of-some-length-000000000`)).status, 403);
    const login = await raw(ui);
    assert.equal(login.status, 303);
    assert.equal(login.headers.location, '/');
    const set = String(login.headers['set-cookie']);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    const cookie = set.split(';')[0]!;
    const listed = await raw(`${base}/api/documents`, { headers: { Cookie: cookie } });
    assert.equal(listed.status, 200);
    assert.ok(JSON.parse(listed.body).documents.some((doc: { id: string }) => doc.id === NOTES));
    // Another Host (DNS rebinding), or another origin's page sending the cookie, is refused.
    const port = new URL(base).port;
    assert.equal(
      (await raw(`${base}/api/documents`, { headers: { Cookie: cookie, Host: `evil.example:${port}` } })).status,
      403,
    );
    assert.equal(
      (
        await raw(`${base}/api/documents`, {
          headers: { Cookie: cookie, Origin: `http://127.0.0.1:${Number(port) + 1}` },
        })
      ).status,
      403,
    );
    // The cookie is the dashboard's only: it opens neither the hooks nor MCP.
    assert.equal(
      (await raw(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { Cookie: cookie }, body: '{}' })).status,
      403,
    );
    assert.equal((await raw(`${base}/mcp`, { method: 'POST', headers: { Cookie: cookie }, body: '{}' })).status, 403);
  });

  it('takes a revert only from its own origin (--allow-writes), and records it as writer ui', async () => {
    const cookie = String((await raw(serveFile(dir).ui)).headers['set-cookie']).split(';')[0]!;
    const first = history(dir).at(-1)!.rev;
    const revert = (origin: string) =>
      raw(`${base}/api/revert`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ doc: NOTES, rev: first }),
      });
    const before = history(dir).length;
    for (const origin of ['http://attacker.example', 'null', `http://127.0.0.1:${Number(new URL(base).port) + 1}`])
      assert.equal((await revert(origin)).status, 403, origin);
    const form = await raw(`${base}/api/revert`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ doc: NOTES, rev: first }),
    });
    assert.equal(form.status, 403);
    assert.equal(history(dir).length, before);
    const done = await revert(base);
    assert.equal(done.status, 200, done.body);
    assert.equal(history(dir)[0]!.writer, 'ui');
    assert.equal(JSON.parse(readFileSync(join(dir, NOTES), 'utf8')).owner, 'ada');
  });

  describe('in chromium', () => {
    let browser: Browser;
    before(async () => {
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
    });
    after(async () => await browser?.close());

    it('loads the dashboard from the printed URL, without the key left in the address bar', async () => {
      const page = await browser.newPage();
      await page.goto(serveFile(dir).ui);
      await page.waitForSelector(`nav button[data-doc="${NOTES}"]`);
      assert.equal(page.url(), `${base}/`);
      // A page of another local origin can neither read the dashboard nor its data.
      const other = await browser.newPage();
      await other.goto(`${base.replace('127.0.0.1', 'localhost')}/`);
      assert.match((await other.textContent('body')) ?? '', /needs the URL baton serve printed/);
      const read = await page.evaluate(
        async (url) => {
          try {
            return await (await fetch(url)).text();
          } catch (error) {
            return `refused: ${String(error)}`;
          }
        },
        `${base.replace('127.0.0.1', 'localhost')}/api/documents`,
      );
      assert.doesNotMatch(read, /notes\.json/);
    });
  });
});
