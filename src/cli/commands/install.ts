import { BatonError, EXIT } from '../../core/errors.js';
import type { Cli } from '../context.js';
import { installClaude, type InstallOptions } from '../../harness/install/index.js';

/**
 * `baton install claude [--project|--user] [--command CMD] [--no-statusline]
 * [--replace-statusline] [--remove] [--dry-run]`: hooks and status line in Claude Code's settings
 * for users who do not load the plugin. Only the `claude` host is installable this way for now.
 */
const USAGE = 'usage: baton install claude [--project|--user] [--command CMD] [--no-statusline] [--replace-statusline] [--remove] [--dry-run]';
const FLAGS = new Set(['--project', '--user', '--no-statusline', '--replace-statusline', '--remove', '--dry-run']);

export default async function install(args: string[], cli: Cli): Promise<number> {
  const [host, ...rest] = args;
  if (host !== 'claude') throw new BatonError('usage', `${host === undefined ? 'missing host' : `unknown host '${host}'`}; ${USAGE}`);
  let command: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--command') {
      command = rest[++i];
      if (!command) throw new BatonError('usage', `--command needs a value, e.g. --command 'node /opt/baton/bin/baton.js'`);
    } else if (!FLAGS.has(arg)) throw new BatonError('usage', `unknown option '${arg}'; ${USAGE}`);
  }
  if (rest.includes('--project') && rest.includes('--user')) throw new BatonError('usage', `choose one of --project and --user; ${USAGE}`);
  const options: InstallOptions = {
    scope: rest.includes('--user') ? 'user' : 'project',
    cwd: cli.cwd,
    env: cli.env,
    statusLine: !rest.includes('--no-statusline'),
    replaceStatusLine: rest.includes('--replace-statusline'),
    remove: rest.includes('--remove'),
    dryRun: rest.includes('--dry-run'),
    script: process.argv[1] ?? '',
  };
  if (command !== undefined) options.command = command;
  const result = installClaude(options);
  if (options.dryRun) cli.out(result.text);
  for (const note of result.notes) cli.err(`baton install: ${note}\n`);
  const what = options.remove ? 'removed baton hooks and status line from' : 'installed baton hooks and status line into';
  cli.err(result.changed ? `baton install: ${options.dryRun ? '(dry run) would have ' : ''}${what} ${result.file}\n` : `baton install: ${result.file} is already up to date\n`);
  return EXIT.ok;
}
