/**
 * The CLI's main: it finds the command's bundle and runs it. Each bundle carries the whole CLI
 * front (run-cli.ts, the definitions) with its command or commands, and is loaded through a V8
 * code cache (bundle-loader.ts), as main itself is by the entry (entry.ts, dist/cli.js; the
 * plugin's cli.js requires it). Which bundle holds which command is the build's
 * (scripts/build.mjs: one per command; the plugin's: the hot ones alone, the rest in one), given
 * as BATON_BUNDLES (paths from this file's folder); a name it does not list (help, --version, an
 * unknown command) goes to its '' entry, whose run-cli answers it.
 *
 * A command a running `baton serve` answers (serve/cli-protocol.ts) goes to it first when the
 * project has a serve.json. The client (serve-client.ts) is part of main, not a bundle of
 * its own: V8 only pre-parses its functions here and compiles them when a server is found, which
 * measured ~1 ms of CPU less per forwarded command than opening, reading and deserializing a
 * bundle and its code cache (docs/benchmarks.md, "CLI commands through baton serve").
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadBundle } from './bundle-loader.js';
import type { BundleMain } from './bundle-main.js';
import { forward } from './serve-client.js';
import { writeFd } from './fd-write.js';
import { FORWARDED } from '../serve/forwarded.js';

// For the entry that ran this module through its code cache (entry.ts), to write that cache.
export { cacheAtExit } from './bundle-loader.js';

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

/**
 * The serve.json of the project a command would open (project/root.ts defaultRoot(): BATON_ROOT,
 * else CLAUDE_PROJECT_DIR, else the git top level, else the working folder), when a server of this
 * user listens (a `serve-*.sock` in the user's temp folder, cli-protocol.ts) and the project has
 * one. The folder is looked at first, so a call with no server anywhere walks up for .git only once,
 * in the command. Inside the phase sandbox baton's state is read-only: a server outside it must not
 * write for it.
 */
function serveFile(env: NodeJS.ProcessEnv): { file: string; root: string } | undefined {
  if (env.BATON_PHASE_SANDBOX === '1') return undefined;
  try {
    // os.tmpdir() on POSIX, without loading node:os; serve-client.ts checks the folder is the user's own.
    const temp = (env.TMPDIR || env.TMP || env.TEMP || '/tmp').replace(/(.)\/$/, '$1');
    if (!readdirSync(join(temp, `baton-${process.getuid?.()}`)).some((name) => name.startsWith('serve-')))
      return undefined;
    const cwd = process.cwd();
    const explicit = env.BATON_ROOT || env.CLAUDE_PROJECT_DIR;
    let root = explicit ? resolve(cwd, explicit) : undefined;
    for (let at = cwd; !root; at = dirname(at)) {
      if (existsSync(join(at, '.git'))) root = at;
      else if (dirname(at) === at) root = cwd;
    }
    const file = join(root, '.baton', 'serve.json');
    return existsSync(file) ? { file, root } : undefined;
  } catch {
    return undefined;
  }
}

/** The server's answer, or the command run in process when the client gives it back (undefined). */
function viaServer(served: { file: string; root: string }): Promise<number> {
  return forward(served.file, served.root, argv).then((code) => code ?? inProcess());
}

const argv = process.argv.slice(2);
const bundles = JSON.parse(BATON_BUNDLES) as Record<string, string> & { '': string };
const word = commandWord(argv);
const file = (word !== undefined && Object.hasOwn(bundles, word) && bundles[word]) || bundles[''];
// async: a bundle that cannot be loaded rejects, as a failed run would, instead of throwing here.
const inProcess = async () => loadBundle<BundleMain>(join(__dirname, file)).run();
const served = word !== undefined && FORWARDED.has(word) ? serveFile(process.env) : undefined;
void (served === undefined ? inProcess() : viaServer(served)).then(
  (code) => {
    process.exitCode = code;
  },
  // Only a bundle that cannot be loaded comes here (a command's errors end in run-cli's boundary):
  // an install cut short, said in one line; a hook wrapper denies a gated event on it.
  (error: unknown) => {
    writeFd(2, `baton: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 70;
  },
);
// Once nothing is left to run, exit here: Node's own teardown of a finished process (freeing the
// environment and the heap the bundle filled) costs a CLI process ~1 ms of CPU, which
// process.exit() skips. Nothing is cut short: the event loop is empty, output is written
// synchronously (process-io.ts), and 'exit' listeners still run (the code cache is written there).
// on(), not once(): the exit ends the process, and once() compiles the events module's wrappers
// (with the loader's 'exit' listener, ~0.35 M instructions a process: docs/benchmarks.md).
process.on('beforeExit', () => process.exit());
