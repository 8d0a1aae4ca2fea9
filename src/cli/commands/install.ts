/**
 * `baton install claude [--project|--user] [--command CMD] [--no-statusline]
 * [--replace-statusline] [--remove] [--dry-run]`: hooks and status line in Claude Code's settings
 * for users who do not load the plugin. Only the `claude` host is installable this way for now.
 */
import { EXIT } from '../../core/errors.js';
import { parseCommand, usageError } from '../args.js';
import { COMMANDS, usageLine } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { installClaude, type InstallOptions } from '../../harness/install/index.js';

export default async function install(args: string[], cli: CommandIo): Promise<number> {
  const def = COMMANDS.install!;
  const { positionals, flags } = parseCommand(def, args);
  if (positionals[0] !== 'claude')
    throw usageError(
      `unknown host '${positionals[0]}': only claude can be installed this way (see docs/hooks.md for the others)`,
      usageLine(def),
    );
  if (flags.project && flags.user) throw usageError('choose one of --project and --user', usageLine(def));
  const command = typeof flags.command === 'string' ? flags.command : undefined;
  if (command === '')
    throw usageError(`--command needs a value, e.g. --command 'node /opt/baton/bin/baton.js'`, usageLine(def));
  const options: InstallOptions = {
    scope: flags.user === true ? 'user' : 'project',
    cwd: cli.cwd,
    env: cli.env,
    statusLine: flags['no-statusline'] !== true,
    replaceStatusLine: flags['replace-statusline'] === true,
    remove: flags.remove === true,
    dryRun: flags['dry-run'] === true,
    script: cli.script ?? '',
  };
  if (command !== undefined) options.command = command;
  const result = installClaude(options);
  if (options.dryRun) cli.out(result.text);
  for (const note of result.notes) cli.err(`baton install: ${note}\n`);
  const what = options.remove
    ? 'removed baton hooks and status line from'
    : 'installed baton hooks and status line into';
  cli.err(
    result.changed
      ? `baton install: ${options.dryRun ? '(dry run) would have ' : ''}${what} ${result.file}\n`
      : `baton install: ${result.file} is already up to date\n`,
  );
  return EXIT.ok;
}
