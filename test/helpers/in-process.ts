// Preloaded by `npm run test:fast` (node --import): the fast tests run in the test's own process, so
// starting a child process fails the test at once, naming what it tried to start. The runner itself
// (which starts one process per test file) is left alone: only its children carry NODE_TEST_CONTEXT.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

if (process.env.NODE_TEST_CONTEXT) guard();

function guard(): void {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
    Object.defineProperty(childProcess, name, {
      value: (file: unknown) => {
        throw new Error(
          `test:fast runs in-process tests only, and this one started a child process (${name} ${String(file)}): ` +
            'name the file *.test.ts, not *.unit.test.ts',
        );
      },
    });
  }
  syncBuiltinESMExports();
}
