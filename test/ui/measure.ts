// Figures for docs/ui.md (not a test: no time limits in tests). First paint of the dashboard on a
// project with 100 documents, one of them with 10,000 revisions, and how long a write takes to
// show on the open page. Run: node scripts/build.mjs && node --import tsx test/ui/measure.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { openDoc } from '../../src/index.js';
import { BIN, cleanEnv } from '../helpers/cli.js';

const REVISIONS = 10_000;
// BATON_UI_MEASURE_DIR keeps the project between runs (making 10,000 durable revisions takes minutes).
const kept = process.env.BATON_UI_MEASURE_DIR;
const dir = kept ?? mkdtempSync(join(tmpdir(), 'baton-ui-measure-'));
const env = { BATON_ROOT: dir, HOME: join(dir, 'home') };
if (kept) mkdirSync(kept, { recursive: true });
const open = (path: string) => openDoc(path, { cwd: dir, env });
const TASK = 'state/task.json';

try {
  if (!kept || !existsSync(join(dir, TASK))) await makeProject();
  console.log(`project: 100 documents, ${REVISIONS} revisions of ${TASK}`);
  const task = open(TASK);

  const child = spawn(process.execPath, [BIN, 'ui'], {
    cwd: dir,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const paints: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage();
      const start = Date.now();
      await page.goto(`${url}#${encodeURIComponent(TASK)}`);
      await page.waitForSelector('#history tr[data-rev]');
      paints.push(Date.now() - start);
      await page.close();
    }
    console.log(
      `first paint (navigation to the task with its history shown), 5 loads: ${paints.map((ms) => `${ms} ms`).join(', ')}`,
    );

    const page = await browser.newPage();
    await page.goto(`${url}#${encodeURIComponent(TASK)}`);
    await page.waitForSelector('#history tr[data-rev]');
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const value = REVISIONS + i;
      // The page notes the moment the new value is in the DOM (a MutationObserver, so no polling delay).
      await page.evaluate((v) => {
        const w = window as unknown as { seenAt?: number };
        delete w.seenAt;
        const observer = new MutationObserver(() => {
          if (document.querySelector(`progress[data-bar="phase"][value="${v}"]`)) {
            w.seenAt = Date.now();
            observer.disconnect();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      }, value);
      await task.update('.phase = $v | .phase_total = $v', { v: value });
      const committed = Date.now();
      const seenAt = await (
        await page.waitForFunction(() => (window as unknown as { seenAt?: number }).seenAt)
      ).jsonValue();
      latencies.push((seenAt as number) - committed);
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `update latency (write committed -> page shows it), 10 writes: median ${latencies[5]} ms, max ${latencies[9]} ms`,
    );
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
} finally {
  if (!kept) rmSync(dir, { recursive: true, force: true });
}

async function makeProject(): Promise<void> {
  for (let i = 0; i < 99; i++)
    await open(`docs/d${String(i).padStart(2, '0')}.json`).init({ n: i, note: 'a document' });
  const task = open(TASK);
  await task.init({
    slug: 'measure',
    status: 'in_progress',
    phase: 0,
    phase_total: REVISIONS,
    tdd_phase: 'FREE',
    wave: 1,
    wave_total: 3,
  });
  for (let i = 1; i < REVISIONS; i++) await task.update('.phase = $n', { n: i });
}
