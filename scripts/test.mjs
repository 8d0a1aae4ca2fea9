// The test runner behind `npm test` (every test/**/*.test.ts) and `npm run test:fast` (only the
// in-process *.unit.test.ts files, with child processes refused). Given file paths, it runs those.
// The run gets a temp folder of its own as TMPDIR and fails when anything is left in it: a test
// removes what it makes, so a run leaves nothing in the shared /tmp.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const fast = process.argv.includes('--fast');
const named = process.argv.slice(2).filter((arg) => arg !== '--fast');
const files = named.length ? named : walk('test').filter((f) => f.endsWith(fast ? '.unit.test.ts' : '.test.ts'));

const shared = tmpdir();
const run = mkdtempSync(join(shared, 'baton-test-run-'));
// Traversable by other users (0711): the PostgreSQL tests run the server as the postgres user.
chmodSync(run, 0o711);
// tsx keeps its compile cache in $TMPDIR/tsx-<uid>: pointing the run's at the shared one keeps it
// warm between runs (and it is not a test's leftover).
const tsxCache = `tsx-${process.getuid?.() ?? userInfo().username}`;
mkdirSync(join(shared, tsxCache), { recursive: true, mode: 0o700 });
symlinkSync(join(shared, tsxCache), join(run, tsxCache));

const preloads = ['tsx', './test/helpers/test-process.ts', ...(fast ? ['./test/helpers/in-process.ts'] : [])];
const result = spawnSync(
  process.execPath,
  [...preloads.flatMap((p) => ['--import', p]), '--test', '--test-concurrency=2', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TMPDIR: run, BATON_TEST_TMP_LINK: tsxCache } },
);
const left = existsSync(run) ? readdirSync(run).filter((name) => name !== tsxCache) : [];
rmSync(run, { recursive: true, force: true, maxRetries: 3 });
if (left.length) {
  console.error(`\ntests left files in their temp folder (TMPDIR): ${left.join(', ')}`);
  process.exit(1);
}
process.exit(result.status ?? 1);

function walk(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}
