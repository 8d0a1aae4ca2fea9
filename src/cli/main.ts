/**
 * The CLI's entry. The command table loads each command only when it runs, so a hook process
 * pays for what it uses (start-up cost stays flat as commands grow). The CLI is built as
 * CommonJS with one bundle per command (scripts/build.mjs), loaded through a V8 code cache
 * (bundle-loader.ts); run-cli.ts is the error boundary every command goes through.
 */
import { join } from 'node:path';
import { loadBundle } from './bundle-loader.js';
import { processIo } from './process-io.js';
import { runCli, type CommandModule } from './run-cli.js';

void runCli(process.argv.slice(2), processIo(), (name) =>
  loadBundle<CommandModule>(join(__dirname, 'commands', `${name}.js`)),
).then((code) => {
  process.exitCode = code;
});
