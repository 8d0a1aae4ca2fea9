/**
 * `baton install claude|codex|gemini|cursor [--project|--user] [--command CMD] [--no-statusline]
 * [--replace-statusline] [--remove] [--dry-run]`: hooks (and Claude Code's status line) in the
 * host's settings, for users who do not load the Claude Code plugin. Per host: docs/hosts.md.
 */
import { EXIT } from '../../core/errors.js';
import { parseCommand, usageError } from '../args.js';
import { installDefinition, usageLine } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';
import { installHooks, type InstallOptions } from '../../harness/install/install.js';
import type { HostName } from '../../harness/hooks/events.js';

const HOSTS: readonly string[] = ['claude', 'codex', 'gemini', 'cursor'] satisfies HostName[];

export default async function install(args: string[], cli: CommandIo): Promise<number> {
  const def = installDefinition();
  const { positionals, flags } = parseCommand(def, args);
  const host = positionals[0]!;
  if (!HOSTS.includes(host))
    throw usageError(`unknown host '${host}': choose one of ${HOSTS.join(', ')} (see docs/hosts.md)`, usageLine(def));
  if (flags.project && flags.user) throw usageError('choose one of --project and --user', usageLine(def));
  const command = flags.command;
  if (command === '')
    throw usageError(`--command needs a value, e.g. --command 'node /opt/baton/bin/baton.js'`, usageLine(def));
  const options: InstallOptions = {
    scope: flags.user === true ? 'user' : 'project',
    cwd: cli.cwd,
    env: cli.env,
    statusLine: host === 'claude' && flags['no-statusline'] !== true,
    replaceStatusLine: flags['replace-statusline'] === true,
    remove: flags.remove === true,
    dryRun: flags['dry-run'] === true,
    serve: flags.serve === true,
    script: cli.script ?? '',
  };
  if (command !== undefined) options.command = command;
  if (options.serve && host !== 'claude')
    throw usageError(
      '--serve is for claude only: other hosts start the server with baton serve --detach',
      usageLine(def),
    );
  const result = installHooks(host as HostName, options);
  if (options.dryRun) cli.out(result.text);
  for (const note of result.notes) cli.err(`baton install: ${note}\n`);
  const what = `${options.remove ? 'removed' : 'installed'} baton hooks${options.statusLine ? ' and status line' : ''} ${options.remove ? 'from' : 'into'}`;
  cli.err(
    result.changed
      ? `baton install: ${options.dryRun ? '(dry run) would have ' : ''}${what} ${result.file}\n`
      : `baton install: ${result.file} is already up to date\n`,
  );
  return EXIT.ok;
}
