import type { CommandIo } from '../../core/command-io.js';
import { EXIT, isBatonError } from '../../core/errors.js';
import { compileJq } from '../../core/jq/jq.js';
import type { Json } from '../../core/json.js';
import { stateExit } from './task-errors.js';
import type { TaskSetup } from './setup.js';

/**
 * Safe read: a missing or broken file, a runtime error, null or no result all print
 * the default and exit 0; strings print raw, anything else as compact JSON, one line per result.
 * Only an expression that does not compile is the caller's bug (exit 2). No lock is taken.
 */
export async function taskGet(setup: TaskSetup, cli: CommandIo, expr: string, fallback: string): Promise<number> {
  let program: ReturnType<typeof compileJq>;
  try {
    program = compileJq(expr, []);
  } catch (error) {
    throw stateExit(
      isBatonError(error) ? error.code : 'jq_syntax',
      EXIT.usage,
      `jq expression failed: ${expr}\n[state] ${(error as Error).message}`,
    );
  }
  let results: Json[] = [];
  try {
    // Through the project's store: on a shared store this machine may have no task file.
    const doc = setup.doc();
    const read = await doc.store.read(doc.key);
    await program.ready();
    if (read.state === 'ok') results = program.run(read.doc, {});
  } catch (error) {
    if (!isBatonError(error)) throw error;
  }
  const lines = results.map((value) =>
    value === null ? fallback : typeof value === 'string' ? value : JSON.stringify(value),
  );
  cli.out(lines.length === 0 ? `${fallback}\n` : `${lines.join('\n')}\n`);
  return 0;
}
