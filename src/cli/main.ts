import { BatonError, EXIT } from '../core/errors.js';
import { processCli, type Command } from './context.js';

/**
 * The command table lazy-imports each command, so a hook process loads only what it runs
 * (start-up cost stays flat as commands grow). This file is the one error boundary: commands throw
 * BatonError, and only here do errors become messages and exit codes.
 */
const COMMANDS: Record<string, () => Promise<{ default: Command }>> = {
  init: () => import('./commands/init.js'),
  get: () => import('./commands/get.js'),
  update: () => import('./commands/update.js'),
  set: () => import('./commands/set.js'),
  append: () => import('./commands/append.js'),
  consume: () => import('./commands/consume.js'),
  clear: () => import('./commands/clear.js'),
  history: () => import('./commands/history.js'),
  show: () => import('./commands/show.js'),
  revert: () => import('./commands/revert.js'),
  doctor: () => import('./commands/doctor.js'),
  demo: () => import('./commands/demo.js'),
  hook: () => import('./commands/hook.js'),
  goal: () => import('./commands/goal.js'),
  lint: () => import('./commands/lint.js'),
  task: () => import('./commands/task.js'),
  run: () => import('./commands/run.js'),
  phase: () => import('./commands/phase.js'),
  gate: () => import('./commands/gate.js'),
  statusline: () => import('./commands/statusline.js'),
  install: () => import('./commands/install.js'),
};

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

Exit codes: 0 ok, 1 refused, 2 usage or jq error, 3 schema violation, 4 unsafe input,
5 writer not allowed, 6 lock timeout, 7 corrupt document. See the README.
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
  const load = COMMANDS[name];
  if (!load) {
    cli.err(`baton: unknown command '${name}'; run 'baton --help' for the list\n`);
    return EXIT.usage;
  }
  try {
    const command = (await load()).default;
    return await command(args, cli);
  } catch (error) {
    if (error instanceof BatonError) {
      cli.err(`baton ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    cli.err(`baton ${name}: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.internal;
  }
}

process.exitCode = await main(process.argv.slice(2));
