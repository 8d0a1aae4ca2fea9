/**
 * The CLI's process entry: it finds the command's bundle and runs it. Each bundle carries the
 * whole CLI front (run-cli.ts, the definitions) with its command or commands, and is loaded
 * through a V8 code cache (bundle-loader.ts); this entry is the only code compiled without one,
 * so it stays a few lines. Which bundle holds which command is the build's (scripts/build.mjs:
 * one per command; the plugin's: the hot ones alone, the rest in one), given as BATON_BUNDLES (paths
 * from this file's folder); a name it does not list (help, --version, an unknown command) goes to its '' entry, whose
 * run-cli answers it.
 */
import { join } from 'node:path';
import { loadBundle } from './bundle-loader.js';
import type { BundleMain } from './bundle-main.js';

declare const BATON_BUNDLES: string;

/**
 * The command word, past the global options run-cli.ts takes off the front (`--store URL`,
 * `--store=URL`). A malformed one still names a bundle: its run-cli reports it.
 */
function commandWord(argv: readonly string[]): string | undefined {
  let i = 0;
  while (argv[i]?.startsWith('--store')) i += argv[i] === '--store' ? 2 : 1;
  return argv[i];
}

const bundles = JSON.parse(BATON_BUNDLES) as Record<string, string> & { '': string };
const word = commandWord(process.argv.slice(2));
const file = (word !== undefined && Object.hasOwn(bundles, word) && bundles[word]) || bundles[''];
void loadBundle<BundleMain>(join(__dirname, file))
  .run()
  .then((code) => {
    process.exitCode = code;
  });
// Once nothing is left to run, exit here: Node's own teardown of a finished process (freeing the
// environment and the heap the bundle filled) costs a CLI process ~1 ms of CPU, which
// process.exit() skips. Nothing is cut short: the event loop is empty, output is written
// synchronously (process-io.ts), and 'exit' listeners still run (the code cache is written there).
process.once('beforeExit', () => process.exit());
