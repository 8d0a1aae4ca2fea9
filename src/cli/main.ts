import { EXIT, fromSystemError, isBatonError } from '../core/errors.js';
import { join } from 'node:path';
import { loadBundle } from './bundle-loader.js';
import { processCli, type Command } from './context.js';

/**
 * The command table loads each command only when it runs, so a hook process pays for what it
 * uses (start-up cost stays flat as commands grow). The CLI is built as CommonJS with one bundle
 * per command (scripts/build.mjs), loaded through a V8 code cache (bundle-loader.ts). This file
 * is the one error boundary: commands throw BatonError, and only here do errors become messages
 * and exit codes.
 */
const COMMANDS = new Set([
  'init',
  'get',
  'update',
  'set',
  'append',
  'consume',
  'clear',
  'history',
  'show',
  'revert',
  'doctor',
  'demo',
  'hook',
  'goal',
  'lint',
  'task',
  'run',
  'phase',
  'gate',
  'statusline',
  'install',
]);

const USAGE = `usage: baton <command> [args]

  init FILE [--schema NAME|PATH] [--arg N V]... [--argjson N J]... [--as WRITER] [--force]
  get FILE [JQ] [--arg N V]... [--argjson N J]... [--default V] [-r|--raw]
  update FILE JQ [--arg N V]... [--argjson N J]... [--as WRITER]
  set FILE PATH VALUE [--json] [--as WRITER]
  append FILE PATH VALUE [--json] [--as WRITER]
  consume FILE PATH [--as WRITER]
  clear FILE [--as WRITER]
  history FILE [--limit N] [--json]
  show FILE --rev N
  revert FILE --rev N [--as WRITER]
  doctor [DIR] [--json] [--repair]
  demo [--dir DIR] [--keep]

  goal start|resume|pause|close|list|touch|now|land ...   the goal workflow (state.md)
  lint STATE [LOG] [SIDECAR] [--json] [--fix]
  run init|set|append|get|clear|show SESSION [FIELD] [VALUE]   pipeline runs (run clean [SESSION]: sweep .ai_log/)
  phase start|done|get|inputs RUN PHASE ...
  gate RUN PHASE [--json]
  task init|update|get|phase-set|next-hint-consume|clear|wave-start ...   Eneo task state
  hook EVENT [--profile NAME] [--host claude|codex|gemini|cursor]   (stdin: the host's payload)
  statusline                                             (stdin: the host's status JSON)
  install claude [--project|--user] [--dry-run] [--remove]

Exit codes: 0 ok, 1 refused, 2 usage or jq error, 3 schema violation, 4 unsafe input,
5 writer not allowed, 6 lock timeout or lost, 7 corrupt document, 8 I/O error. See the README.
`;

async function main(argv: string[]): Promise<number> {
  const cli = processCli();
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? cli.err : cli.out)(USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    cli.out('baton 0.1.0\n');
    return EXIT.ok;
  }
  if (!COMMANDS.has(name)) {
    cli.err(`baton: unknown command '${name}'; run 'baton --help' for the list\n`);
    return EXIT.usage;
  }
  try {
    const command = loadBundle<{ default: Command }>(join(__dirname, 'commands', `${name}.js`)).default;
    return await command(args, cli);
  } catch (error) {
    // A permission, read-only or full-disk error is the user's environment, not a bug: one line.
    const known = isBatonError(error) ? error : fromSystemError(error);
    if (known) {
      cli.err(`baton ${name}: ${known.message}\n`);
      return known.exitCode;
    }
    cli.err(`baton ${name}: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.internal;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
