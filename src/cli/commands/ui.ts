/**
 * `baton ui`: serves the dashboard until SIGINT or SIGTERM. Its server, page and watchers live in
 * this command's own bundle (scripts/build.mjs builds one per command), so no other command's
 * start-up loads any of it.
 */
import { hostname } from 'node:os';
import { BatonError } from '../../core/errors.js';
import { defaultRoot } from '../../project/root.js';
import { isLoopback, isWildcard, startUi } from '../../ui/ui-server.js';
import { intFlag, parseCommand } from '../args.js';
import type { CommandIo } from '../../core/command-io.js';
import { uiDefinition } from '../definitions.js';
import { markBuildInUse } from '../build-in-use.js';

export default async function ui(args: string[], cli: CommandIo): Promise<number> {
  const { flags } = parseCommand(uiDefinition(), args);
  const port = intFlag(flags.port, 'port', 0) as number;
  if (port > 65535) throw new BatonError('usage', `--port must be at most 65535, got ${port}`);
  const host = flags.host ?? '127.0.0.1';
  const token = flags.token;
  if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token))
    throw new BatonError('usage', '--token must be 16 to 256 printable characters without spaces');
  const server = await startUi({
    root: defaultRoot(cli.cwd, cli.env),
    env: cli.env,
    host,
    port,
    token,
    allowWrites: flags['allow-writes'] === true,
    writer: flags.as ?? 'ui',
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
      throw new BatonError(
        'usage',
        `cannot listen on ${host}:${port} (${error.code}); choose another --port or --host`,
      );
    }
    throw error;
  });
  cli.out(`${server.url}\n`);
  const where = isLoopback(host)
    ? 'on this machine only'
    : isWildcard(host)
      ? `on all interfaces (${host}; from another machine: ${server.url.replace(/\/\/[^/]+:/, `//${hostname()}:`)}): requests need the token in the URL`
      : `on ${host}: requests need the token in the URL`;
  cli.err(
    `baton ui: serving ${where}, ${flags['allow-writes'] === true ? 'writes allowed' : 'read-only'}; Ctrl-C stops\n`,
  );
  const unmark = markBuildInUse();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  unmark();
  return 0;
}
