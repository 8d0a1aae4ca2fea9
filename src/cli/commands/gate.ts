/**
 * `baton gate RUN PHASE`: exit 0 when the phase's evidence holds, 1 when it does not. The verdict
 * is also recorded on the phase (`phases.<p>.gate`) so `baton run show` and the next agent see it;
 * the check reads files first and the record is a separate locked write.
 */
import { isoSeconds } from '../../core/iso-time.js';
import { COMPAT_EXITS, EXIT, type CompatFace } from '../../core/errors.js';
import { Run } from '../../run/run-document.js';
import { evaluateGate, formatGate } from '../../run/gate.js';
import { checkPhaseKey } from '../../run/phases.js';
import { parseCommand, writerFrom } from '../args.js';
import { gateDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';

/** The run bus's exit codes (those of pipeline-state.sh), as `baton run` has. */
export function face(): CompatFace {
  return { lead: 'baton gate: ', codes: COMPAT_EXITS.runBus };
}

export default async function gate(argv: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(gateDefinition(), argv);
  const [ref, key] = positionals as [string, string];
  checkPhaseKey(key);
  const run = new Run(ref, { cwd: cli.cwd, env: cli.env, writer: writerFrom(flags.as, cli.env) }, flags.name);
  const doc = await run.read();
  const result = evaluateGate(doc, key, run.location.root);
  const missing = result.rows.filter((row) => !row.holds).map((row) => `${row.kind} ${row.subject}`);
  const at = isoSeconds();
  if (doc.phases?.[key]) {
    await run.update((current) => {
      const entry = current.phases?.[key];
      if (entry) entry.gate = { result: result.pass ? 'pass' : 'fail', at, ...(missing.length > 0 ? { missing } : {}) };
    }, 'gate');
  }
  cli.out(flags.json ? `${JSON.stringify(result)}\n` : formatGate(result));
  return result.pass ? EXIT.ok : EXIT.refused;
}
