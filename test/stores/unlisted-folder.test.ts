/**
 * A folder of the file store that this user may not list (mode 000): the store's listing names it
 * with the cause and the fix instead of leaving its documents out without a word. The dashboard
 * shows it as an unreadable row (and a goal folder alike), and `baton store export` refuses, since
 * an export without that folder's documents would pass for the whole store. Root lists a 000 folder
 * anyway, so baton runs without the capabilities that let it, and EACCES is met whoever runs the tests.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton, BIN, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { serve } from '../serve/hook-client.js';

const asUser = (argv: string[]): string[] =>
  process.getuid?.() === 0
    ? ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--', ...argv]
    : argv;

const DENIED = 'permission denied; give this user access to it or run baton as its owner (EACCES)';

function get(url: string, cookie?: string): Promise<{ headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: cookie ? { Cookie: cookie } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** A project with a document in `open/` and one in `secret/`, `secret/` then made 000; HOME with one goal. */
function project(t: { after(fn: () => void): void }) {
  const p = tempTree({ 'home/x': '' });
  const locked: string[] = [];
  t.after(() => {
    for (const dir of locked) chmodSync(dir, 0o755);
    p.cleanup();
  });
  for (const doc of ['open/a.json', 'secret/b.json'])
    assert.equal(baton(['init', doc, '--argjson', 'n', '1'], { cwd: p.dir }).code, 0);
  const goal = join(p.dir, 'home', '.claude', 'orchestrate', 'g');
  mkdirSync(goal, { recursive: true });
  writeFileSync(join(goal, 'state.md'), '# Goal: a goal\n');
  for (const dir of [join(p.dir, 'secret'), goal]) {
    chmodSync(dir, 0o000);
    locked.push(dir);
  }
  return { dir: p.dir, env: { HOME: join(p.dir, 'home') }, goal };
}

describe('the file store: a folder it cannot list', () => {
  // Before: the dashboard listed open/a.json alone, as if that were all.
  it('the dashboard lists it as an unreadable row naming the folder, the cause and the fix; a goal folder alike', async (t) => {
    const { dir, env } = project(t);
    const server = await serve(dir, env, { prefix: asUser([]) });
    t.after(() => server.stop());
    const { ui } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8')) as { ui: string };
    const login = await get(ui);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const listed = JSON.parse((await get(new URL('/api/documents', ui).href, cookie)).body) as {
      documents: { id: string; error?: string }[];
    };
    const rows = new Map(listed.documents.map((d) => [d.id, d.error]));
    assert.ok(rows.has('open/a.json'), JSON.stringify(listed));
    assert.equal(
      rows.get('secret/'),
      `${join(dir, 'secret')} cannot be listed, so the documents in it are not listed: ${DENIED}`,
    );
    assert.equal(
      rows.get('goal:g'),
      `${join(dir, 'home', '.claude', 'orchestrate', 'g', 'state.md')} cannot be read, so this goal cannot be shown: ${DENIED}`,
    );
  });

  // Before: exit 0, with open/a.json alone in the export.
  it('baton store export refuses with one line naming the folder, and writes no file', (t) => {
    const { dir, env, goal } = project(t);
    // The goal's folder is in the project's tree too: only secret/ is left unlistable here.
    chmodSync(goal, 0o755);
    const [command, ...args] = asUser([process.execPath, BIN, 'store', 'export', 'out.jsonl']);
    const r = spawnSync(command!, args, { cwd: dir, env: cleanEnv(env), encoding: 'utf8' });
    assert.equal(r.status, 8, r.stderr);
    assert.equal(
      r.stderr,
      `baton store: ${join(dir, 'secret')} cannot be listed, so its documents cannot be exported: ${DENIED}\n`,
    );
    assert.throws(() => readFileSync(join(dir, 'out.jsonl')), /ENOENT/);
  });
});
