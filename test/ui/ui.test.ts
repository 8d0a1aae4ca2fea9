/**
 * `baton ui` in a real browser (Debian's chromium, driven by playwright-core): the built CLI
 * serves a real project, other processes change its documents, and the page is checked through
 * the DOM. Waits are for DOM conditions, never for a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Board, openDoc } from '../../src/index.js';
import { baton, BIN, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const TASK = '.claude/state/current-task.json';
const RUN = '.ai_log/session-S1.json';
const HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
const BOARD = '.claude/state/board.json';

interface Served {
  url: string;
  child: ChildProcess;
  /** What the server printed on stderr so far. */
  stderr(): string;
  stop(): Promise<number | null>;
}

function serve(cwd: string, env: Record<string, string>, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'ui', ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    let out = '';
    // Ready once the URL (stdout) and the line saying how it serves (stderr) are both printed.
    const ready = () => {
      const line = out.split('\n')[0];
      if (!out.includes('\n') || !line || !stderr.includes('\n')) return;
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      resolve({ url: line, child, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), exited) });
    };
    child.stdout.on('data', (chunk) => ((out += chunk), ready()));
    child.stderr.on('data', (chunk) => ((stderr += chunk), ready()));
    child.once('exit', (code) => reject(new Error(`baton ui exited ${code}: ${stderr}`)));
  });
}

/** A plain HTTP request, with control of the Host header a browser would not let us set. */
function fetchRaw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function historyOf(
  dir: string,
  env: Record<string, string>,
): { rev: number; writer?: string; op: { kind: string; rev?: number } }[] {
  const result = baton(['history', TASK, '--json', '--limit', '100'], { cwd: dir, env });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('baton ui', () => {
  const tree = tempTree({
    'docs/plan.md': 'the plan, in full\n',
    'outside/secret.txt': 'do not show\n',
    'home/.claude/orchestrate/ship-it/state.md': '# Goal\n\n## Now\n\n## Next\n- land the dashboard\n',
  });
  const dir = join(tree.dir, 'project');
  const env = { BATON_ROOT: dir, HOME: join(tree.dir, 'home') };
  const shots = join(tree.dir, 'screenshots');
  let browser: Browser;
  let server: Served;
  let page: Page;

  const run = (...args: string[]) => {
    const result = baton(args, { cwd: dir, env });
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  };

  before(async () => {
    mkdirSync(shots);
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'plan.md'), 'the plan, in full\n');
    symlinkSync(join(tree.dir, 'outside', 'secret.txt'), join(dir, 'docs', 'link.md'));
    run('task', 'init', 'demo-task', 'feature', '2', 'none', 'none');
    run('task', 'wave-start', '1', '3', '--total', '3', '--agents', '["impl-a","impl-b"]');
    run('update', TASK, '.phase = 2 | .phase_total = 5 | .next_hint = $h', '--arg', 'h', HOSTILE);
    // What the SubagentStop barrier records for `BLOCKED|needs the staging API key` from agent b-7
    // (test/harness/wave-barrier.test.ts); this project's default profile runs no barrier.
    const wave = join(dir, '.claude', 'state', 'wave.json');
    const seeded = JSON.parse(readFileSync(wave, 'utf8')) as Record<string, unknown>;
    const reasons = { 'b-7': 'needs the staging API key' };
    writeFileSync(wave, JSON.stringify({ ...seeded, blocked_agents: ['b-7'], blocked_reasons: reasons }));
    run('run', 'init', 'S1');
    run('phase', 'start', 'S1', '1-plan', '--agent', 'planner');
    run('phase', 'done', 'S1', '1-plan', '--evidence', 'docs/plan.md', '--output', 'summary=ok');
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    server = await serve(dir, env);
    page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    page.on('dialog', (dialog) => void dialog.accept());
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    tree.cleanup();
  });

  it("shows a task's phase bar and its wave barrier", async () => {
    await page.goto(`${server.url}#${encodeURIComponent(TASK)}`);
    await page.waitForSelector('progress[data-bar="phase"][value="2"][max="5"]');
    assert.equal(await page.textContent('#slug'), 'demo-task');
    assert.match((await page.textContent('#barrier')) ?? '', /0\/3 done/);
    assert.match((await page.textContent('#task')) ?? '', /impl-a/);
    assert.equal(await page.textContent('#blocked [data-agent="b-7"]'), 'b-7: needs the staging API key');
    await page.screenshot({ path: join(shots, 'task.png'), fullPage: true });
    if (process.env.BATON_UI_SCREENSHOT) await page.screenshot({ path: process.env.BATON_UI_SCREENSHOT });
  });

  it('shows a <script> value as text and runs none of it', async () => {
    await page.waitForSelector('#task');
    assert.ok(((await page.textContent('#task')) ?? '').includes(HOSTILE));
    assert.equal(await page.evaluate(() => document.querySelectorAll('#detail script, #detail img').length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  });

  it('follows a change made by another process without reloading', async () => {
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    run('update', TASK, '.phase = 3');
    await page.waitForSelector('progress[data-bar="phase"][value="3"]');
    // The same page, not a reload: the marker set before the change is still there.
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1);
    run('run', 'set', 'S1', 'note', 'new');
    await page.waitForFunction(
      (id) => document.querySelector(`nav button[data-doc="${id}"]`) === document.querySelector('nav button'),
      RUN,
    );
  });

  it("opens a revision's diff with the old and new values", async () => {
    await page.click(`nav button[data-doc="${TASK}"]`);
    const last = historyOf(dir, env)[0]!;
    await page.click(`tr[data-rev="${last.rev}"]`);
    const diff = await page.waitForSelector(`#diff-${last.rev}`);
    const text = (await diff.textContent()) ?? '';
    assert.match(text, /\/phase/);
    assert.match(text, /- 2/);
    assert.match(text, /\+ 3/);
  });

  it('refuses a revert when read-only, and records nothing', async () => {
    const revs = historyOf(dir, env).length;
    await page.click('#revert');
    await page.waitForSelector('#message.bad');
    assert.match((await page.textContent('#message')) ?? '', /403/);
    assert.equal(historyOf(dir, env).length, revs);
    const direct = await page.evaluate(
      async ([doc]) =>
        (
          await fetch('/api/revert', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ doc, rev: 1 }),
          })
        ).status,
      [TASK],
    );
    assert.equal(direct, 403);
  });

  it('reverts with --allow-writes, after confirmation, as the ui writer', async () => {
    const writable = await serve(dir, env, ['--allow-writes']);
    try {
      const other = await browser.newPage();
      let asked = '';
      other.on('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.accept();
      });
      await other.goto(`${writable.url}#${encodeURIComponent(TASK)}`);
      const target = historyOf(dir, env)[1]!.rev; // the revision before phase = 3
      await other.click(`tr[data-rev="${target}"]`);
      await other.click('#revert');
      await other.waitForSelector('#message.ok');
      assert.match(asked, new RegExp(`revision ${target}`));
      const newest = historyOf(dir, env)[0]!;
      assert.equal(newest.writer, 'ui');
      assert.deepEqual([newest.op.kind, newest.op.rev], ['revert', target]);
      // and the page follows its own write
      await other.waitForSelector('progress[data-bar="phase"][value="2"]');
      await other.close();
    } finally {
      await writable.stop();
    }
  });

  it("shows a run's phases, gates and an evidence file's content", async () => {
    await page.click(`nav button[data-doc="${RUN}"]`);
    await page.waitForSelector('#timeline tr[data-phase="1-plan"]');
    assert.match((await page.textContent('#timeline')) ?? '', /planner/);
    await page.click('button[data-file="docs/plan.md"]');
    assert.equal(await (await page.waitForSelector('#file-text')).textContent(), 'the plan, in full\n');
    await page.screenshot({ path: join(shots, 'run.png'), fullPage: true });
  });

  it('refuses files outside the project, through ../ and through a symlink', async () => {
    const status = (path: string) =>
      page.evaluate(async (p) => (await fetch(`/api/file?path=${encodeURIComponent(p)}`)).status, path);
    assert.equal(await status('docs/plan.md'), 200);
    assert.equal(await status('../outside/secret.txt'), 403);
    assert.equal(await status(join(tree.dir, 'outside', 'secret.txt')), 403);
    assert.equal(await status('docs/link.md'), 403);
    assert.equal(await page.evaluate(async () => (await fetch('/api/document?doc=docs%2Flink.md')).status), 403);
  });

  it("shows a goal's state.md with the lint's findings", async () => {
    await page.click('nav button[data-doc="goal:ship-it"]');
    await page.waitForSelector('#findings');
    assert.match((await page.textContent('#findings')) ?? '', /now-empty/);
    assert.equal(await page.textContent('#state-md .flag'), '## Now');
  });

  it('pages through a long history: the newest 100, then older ones', async () => {
    const long = openDoc('long.json', { cwd: dir, env });
    await long.init({ n: 0 });
    for (let n = 1; n < 120; n++) await long.update('.n = $n', { n });
    await page.goto(`${server.url}#long.json`);
    await page.waitForSelector('#history tr[data-rev="120"]');
    assert.equal(await page.locator('#history tr[data-rev]').count(), 100);
    assert.equal(await page.locator('#history tr[data-rev="1"]').count(), 0);
    await page.click('#older');
    await page.waitForSelector('#history tr[data-rev="1"]');
  });

  it('shows the work board: holders and lease ends, an expired lease, dependencies, paths; live', async () => {
    const work = (...args: string[]) => run('work', ...args);
    work('add', 'api', '--title', HOSTILE, '--paths', 'src/api/**');
    work('add', 'ui', '--title', 'Build the UI', '--after', 'api', '--paths', 'src/ui/**');
    work('add', 'docs', '--title', 'Write the docs');
    await page.goto(`${server.url}#${encodeURIComponent(BOARD)}`);
    const row = (id: string, state: string) => `#board tr[data-item="${id}"][data-state="${state}"]`;
    await page.waitForSelector(row('api', 'open'));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 2));
    assert.match((await page.textContent(row('ui', 'waiting'))) ?? '', /waits for api/);
    assert.match((await page.textContent(`${row('ui', 'waiting')}`)) ?? '', /src\/ui\/\*\*/);

    // A claim by another process shows its holder; a lease that runs out with no write at all is
    // marked on the open page; the takeover shows the new holder and its lease end.
    work('claim', 'api', '--as', 'agent-1', '--lease', '1');
    const expired = await page.waitForSelector(`${row('api', 'expired')} .item-lease .bad`);
    const first = JSON.parse(readFileSync(join(dir, BOARD), 'utf8')).items.api.claim.expires as string;
    assert.equal(await expired.getAttribute('title'), first);
    assert.match((await expired.textContent()) ?? '', /^expired \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    assert.equal(await page.textContent(`${row('api', 'expired')} .item-holder`), 'agent-1');
    work('claim', 'api', '--as', 'agent-2');
    assert.equal(await (await page.waitForSelector(`${row('api', 'held')} .item-holder`)).textContent(), 'agent-2');
    const expires = JSON.parse(readFileSync(join(dir, BOARD), 'utf8')).items.api.claim.expires as string;
    assert.equal(await page.getAttribute(`${row('api', 'held')} .item-lease span`, 'title'), expires);
    work('claim', 'docs', '--as', HOSTILE);
    assert.equal(await (await page.waitForSelector(`${row('docs', 'held')} .item-holder`)).textContent(), HOSTILE);
    work('done', 'api', '--as', 'agent-2');
    await page.waitForSelector(row('ui', 'open'));
    assert.match((await page.textContent(row('api', 'done'))) ?? '', /done by agent-2/);
    assert.match((await page.textContent('#board-summary')) ?? '', /1\/3 done · 2 pending · 1 held · 1 ready/);
    // The same page throughout, and the hostile title and holder are text.
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 2);
    assert.equal(await page.textContent(`${row('api', 'done')} .item-title`), HOSTILE);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#detail script, #detail img').length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await page.screenshot({ path: join(shots, 'board.png'), fullPage: true });
  });

  it("renders a board-shaped document's hostile item ids as text", async () => {
    // Item ids on the real board match a pattern; any other document of that shape is shown too.
    const forged = {
      [HOSTILE]: {
        title: 't',
        after: [],
        paths: [HOSTILE],
        fields: {},
        status: 'open',
        added_at: '2026-01-01T00:00:00Z',
      },
    };
    run('init', 'forged/board.json', '--argjson', 'items', JSON.stringify(forged), '--argjson', 'claims', '0');
    await page.goto(`${server.url}#forged%2Fboard.json`);
    const cell = await page.waitForSelector(
      '#detail[data-loaded="forged/board.json"] #board tr[data-state="open"] code',
    );
    assert.equal(await cell.textContent(), HOSTILE);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#detail script, #detail img').length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  });

  it('shows a board of many items bounded: the pending ones first, a count of the rest', async () => {
    const board = new Board({ cwd: dir, env, path: join(dir, 'big', 'board.json') });
    for (let n = 0; n < 230; n++) await board.add({ id: `item-${n}`, title: `item ${n}` });
    for (let n = 0; n < 30; n++) {
      await board.claim(`item-${n}`, 'w');
      await board.done(`item-${n}`, 'w');
    }
    await board.claim('item-229', 'last');
    await page.goto(`${server.url}#big%2Fboard.json`);
    await page.waitForSelector('#board-omitted');
    assert.equal(await page.locator('#board tr[data-item]').count(), 200);
    // The held item first, then the open ones; the 30 done are past the 200 shown.
    assert.equal(await page.getAttribute('#board tr[data-item]', 'data-item'), 'item-229');
    assert.equal(await page.locator('#board tr[data-state="done"]').count(), 0);
    assert.match((await page.textContent('#board-omitted')) ?? '', /^30 more items not shown/);
  });

  it('refuses a foreign Host header on loopback (DNS rebinding)', async () => {
    assert.equal((await fetchRaw(`${server.url}api/documents`)).status, 200);
    assert.equal(
      (await fetchRaw(`${server.url}api/documents`, { headers: { Host: 'attacker.example:80' } })).status,
      401,
    );
  });

  it('requires the token off loopback', async () => {
    const open = await serve(dir, env, ['--host', '0.0.0.0']);
    try {
      const url = new URL(open.url);
      const token = url.searchParams.get('token');
      assert.ok(token && token.length >= 16, open.url);
      const base = `http://127.0.0.1:${url.port}`;
      assert.equal(url.origin, base, 'a URL a browser can open, not http://0.0.0.0');
      assert.match(
        open.stderr(),
        new RegExp(
          `on all interfaces \\(0\\.0\\.0\\.0; from another machine: http://${hostname()}:${url.port}/\\?token=`,
        ),
      );
      assert.equal((await fetchRaw(`${base}/`)).status, 401);
      assert.equal((await fetchRaw(`${base}/api/documents?token=wrong-token-wrong-token`)).status, 401);
      assert.equal((await fetchRaw(`${base}/api/documents?token=${token}`)).status, 200);
      const other = await browser.newPage();
      await other.goto(`${base}/?token=${token}#${encodeURIComponent(TASK)}`);
      await other.waitForSelector('progress[data-bar="phase"]');
      await other.close();
    } finally {
      await open.stop();
    }
  });

  it('says what to run in a project with no documents', async () => {
    const empty = join(tree.dir, 'empty');
    mkdirSync(empty);
    const idle = await serve(empty, { BATON_ROOT: empty, HOME: join(tree.dir, 'nohome') });
    try {
      const other = await browser.newPage();
      await other.goto(idle.url);
      assert.match((await (await other.waitForSelector('#empty')).textContent()) ?? '', /baton init/);
      // and the first document written appears without a reload
      assert.equal(
        baton(['init', 'state.json', '--arg', 'x', '1'], { cwd: empty, env: { BATON_ROOT: empty } }).code,
        0,
      );
      await other.waitForSelector('nav button[data-doc="state.json"]');
      await other.close();
    } finally {
      assert.equal(await idle.stop(), 0);
    }
  });

  it('kept the screenshots', () => {
    assert.ok(readFileSync(join(shots, 'task.png')).length > 1000);
  });
});
