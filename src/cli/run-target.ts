/** The run a `baton run` or `baton phase` command names, opened with the caller's flags. */
import type { CommandIo } from '../core/command-io.js';
import { limitsFrom } from '../run/size-limits.js';
import { Run } from '../run/run-document.js';
import { writerFrom } from './args.js';

/** Writer from `--as`, size limits (`--allow-large`), the label from `--name`. */
export function runTarget(
  ref: string,
  flags: { as?: string; name?: string; 'allow-large'?: true },
  cli: CommandIo,
): Run {
  return new Run(
    ref,
    {
      cwd: cli.cwd,
      env: cli.env,
      writer: writerFrom(flags.as, cli.env),
      limits: limitsFrom(cli.env, flags['allow-large'] === true),
    },
    flags.name,
  );
}
