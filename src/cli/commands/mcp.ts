import { parseCommand } from '../args.js';
import { mcpDefinition } from '../definitions.js';
import { markBuildInUse } from '../build-in-use.js';
import type { CommandIo } from '../../core/command-io.js';
import { serveMcp } from '../../mcp/mcp-server.js';

declare const BATON_VERSION: string | undefined;

/**
 * `baton mcp`: runs until the client closes stdin. The SDK is bundled into this command's own
 * bundle (scripts/build.mjs builds one per command), so no other command loads any of it, and
 * it is a devDependency: neither an install nor the plugin (bundles, no node_modules) needs
 * the SDK's ~90 packages (an HTTP server among them) on disk to run `baton mcp`.
 */
export default async function mcp(args: string[], cli: CommandIo): Promise<number> {
  const { flags } = parseCommand(mcpDefinition(), args);
  const unmark = markBuildInUse();
  try {
    await serveMcp({
      cwd: cli.cwd,
      env: cli.env,
      version: typeof BATON_VERSION === 'string' ? BATON_VERSION : 'dev',
      writer: flags.as,
    });
  } finally {
    unmark();
  }
  return 0;
}
