/**
 * `baton lint STATE [LOG] [SIDECAR] [--json] [--fix]`: the state.md lint. Exit 0 for
 * every existing file whatever it finds; 1 when STATE is missing or not a file (a lint gate must
 * not pass on a typo); 2 for a usage error. `--json` prints
 * `{"file", "findings": [{code, message}]}`; `--fix` applies the safe mechanical fixes under the
 * state lock, prints `fixed: <code>: <change>` lines, then the findings that remain.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BatonError, EXIT } from '../../core/errors.js';
import { parseCommand } from '../args.js';
import type { CommandIo } from '../../core/command-io.js';
import { lintDefinition } from '../definitions.js';
import { toolNames } from '../../goal/goal-paths.js';
import { formatFinding, type Finding } from '../../goal/lint/lint-context.js';

export default async function lint(args: string[], cli: CommandIo): Promise<number> {
  const names = toolNames(cli.env);
  // Through the drop-in state-lint.sh, the original's contract: plain positionals, and
  // a STATE that is not a file is no finding (exit 0). `baton lint` itself refuses it instead.
  const { positionals, flags } = names.compat ? compatArgs(args) : parseCommand(lintDefinition(), args);
  const json = flags.json === true;
  const fix = flags.fix === true;
  const [state, log, sidecar] = positionals as [string?, string?, string?];
  // state-lint.sh's usage line and exit code.
  if (!state)
    throw new BatonError('usage', 'usage: baton lint <state.md> [<log.md>] [<sidecar>] [--json] [--fix]', {
      compat: { exitCode: EXIT.refused, lead: '' },
    });
  // Paths are the caller's, from its folder (cli.cwd), as every command takes them: the process's
  // own folder is another one when baton runs in-process.
  const at = (path: string | undefined) => (path ? resolve(cli.cwd, path) : undefined);
  const stat = statSync(at(state) as string, { throwIfNoEntry: false });
  if (!stat?.isFile()) {
    if (names.compat) return 0;
    throw new BatonError(
      'not_found',
      `${state} ${stat ? 'is not a file' : 'does not exist'}; give the path of the goal's state.md`,
    );
  }
  const options = { logPath: at(log), sidecarPath: at(sidecar), env: cli.env, goalTool: names.goal };
  const { lintState } = await import('../../goal/lint/lint-file.js');
  let fixed: { code: string; change: string }[] = [];
  if (fix) {
    const { fixState } = await import('../../goal/lint/fix.js');
    fixed = (await fixState(at(state) as string, options)) ?? [];
  }
  const findings: Finding[] | undefined = lintState(at(state) as string, options);
  if (findings === undefined) return 0;
  const remaining = new Set(findings.map((f) => f.code));
  fixed = fixed.filter((f) => !remaining.has(f.code));
  if (json) {
    cli.out(`${JSON.stringify({ file: state, ...(fix ? { fixed } : {}), findings })}\n`);
    return 0;
  }
  for (const f of fixed) cli.out(`fixed: ${f.code}: ${f.change}\n`);
  for (const finding of findings) cli.out(`${formatFinding(finding)}\n`);
  return 0;
}

function compatArgs(args: string[]): { positionals: string[]; flags: Record<string, true | undefined> } {
  const flags = { json: args.includes('--json') || undefined, fix: args.includes('--fix') || undefined };
  return { positionals: args.filter((arg) => arg !== '--json' && arg !== '--fix'), flags };
}
