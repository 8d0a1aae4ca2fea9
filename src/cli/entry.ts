/**
 * The CLI's process entry, dist/cli.js (bin/baton.js requires it): it runs main (main.ts, in the
 * build's folder) through a V8 code cache, as main runs the command bundles. Compiled from source
 * in every process, main cost `baton get` ~4 M instructions of its ~22 M over a bare Node start
 * (parsing it, and compiling each function it calls: docs/benchmarks.md); this entry is now the
 * only code compiled without a cache, so it holds only the loader's read path (code-cache.ts). Main writes its own
 * cache at exit with the loader's rules (cacheAtExit: beside it, else the user's own temp folder,
 * a draft until a run succeeds).
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { runCode } from './code-cache.js';
import type * as Main from './main.js';

/** Main's path from this file's folder: `builds/<id>/main.js`, so a process keeps to the build it started in. */
declare const BATON_MAIN: string;

// A plain Error, not a BatonError (errors.ts would be parsed in every process). A main that cannot
// be loaded is an install cut short: one line and exit 70 (internal), as main says of a command's
// bundle; a hook wrapper (plugin/bin/baton) denies a gated event on it.
try {
  const main = runCode<typeof Main>(join(__dirname, BATON_MAIN), (message) => new Error(message));
  main.exports.cacheAtExit(main);
} catch (error) {
  writeSync(2, `baton: ${(error as Error).message}\n`);
  process.exitCode = 70;
}
