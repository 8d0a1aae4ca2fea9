// Preloaded into each test file's process by scripts/test.mjs (node --import). The file gets a temp
// folder of its own as TMPDIR, which the processes it starts inherit; when it exits, the folders
// made through tempDir() go, and anything else left there fails the file, named, before the folder
// is removed. The runner process (the one starting a process per file) is left alone: only the
// files' processes carry NODE_TEST_CONTEXT.
import { chmodSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { madeTempDirs } from './fixtures.js';

// The dashboard's page files are imported as text (inlined by esbuild); in process too.
register('./text-imports.mjs', import.meta.url);

const link = process.env.BATON_TEST_TMP_LINK;
if (process.env.NODE_TEST_CONTEXT && link) ownTempFolder(link);

function ownTempFolder(link: string): void {
  const mine = mkdtempSync(join(tmpdir(), 'file-'));
  chmodSync(mine, 0o711); // traversable, as the run's folder is, for the postgres user
  // The shared tsx compile cache, for the `node --import tsx` processes a test starts.
  symlinkSync(join(tmpdir(), link), join(mine, link));
  process.env.TMPDIR = mine;
  process.on('exit', () => {
    for (const dir of madeTempDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    const left = readdirSync(mine).filter((name) => name !== link);
    if (left.length) {
      const file = relative(process.cwd(), process.argv[1] ?? '?');
      process.stderr.write(`${file} left files in its temp folder: ${left.join(', ')}\n`);
      process.exitCode = 1;
    }
    rmSync(mine, { recursive: true, force: true, maxRetries: 3 });
  });
}
