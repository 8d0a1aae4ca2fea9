/**
 * What a CLI bundle runs (main.ts loads one per process): the error boundary over this process's
 * I/O, with the commands the bundle carries and their definitions. main.ts chose the bundle by the same command word
 * run-cli.ts reads, so a command it does not carry is the build's mistake.
 */
import { BatonError } from '../core/errors.js';
import { processIo } from './process-io.js';
import type { Definitions } from './definitions.js';
import { runCli, type CommandModule } from './run-cli.js';

export interface BundleMain {
  run(): Promise<number>;
}

export function bundleMain(commands: Readonly<Record<string, CommandModule>>, definitions: Definitions): BundleMain {
  return {
    run: () =>
      runCli(
        process.argv.slice(2),
        processIo(),
        (name) => {
          const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
          if (!command)
            throw new BatonError(
              'internal',
              `internal error: this build's bundle for '${name}' does not carry it; reinstall baton`,
            );
          return command;
        },
        definitions,
      ),
  };
}
