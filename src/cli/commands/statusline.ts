/**
 * `baton statusline`: Claude Code's `statusLine` command. Reads the status JSON on stdin, prints
 * one or two rows, and exits 0 whatever happens (a non-zero exit or empty output blanks the host's
 * line). Arguments are ignored so a settings entry with extra words keeps working.
 */
import type { CommandIo } from '../../core/command-io.js';
import { runStatusline } from '../../harness/statusline/statusline.js';

export default async function statusline(_args: string[], cli: CommandIo): Promise<number> {
  cli.out(await runStatusline({ stdin: cli.readStdin(), env: cli.env, cwd: cli.cwd }));
  return 0;
}
