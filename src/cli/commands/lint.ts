import type { Cli } from '../context.js';
import { toolNames } from '../../goal/paths.js';
import { formatFinding, type Finding } from '../../goal/lint/context.js';

/**
 * `baton lint STATE [LOG] [SIDECAR] [--json] [--fix]`: the state.md lint (spec 4). Exit 0 for
 * every existing file whatever it finds; 1 only for a missing argument. `--json` prints
 * `{"file", "findings": [{code, message}]}`; `--fix` applies the safe mechanical fixes under the
 * state lock, prints `fixed: <code>: <change>` lines, then the findings that remain.
 */
const USAGE = 'usage: baton lint <state.md> [<log.md>] [<sidecar>] [--json] [--fix]\n';

export default async function lint(args: string[], cli: Cli): Promise<number> {
  const json = args.includes('--json');
  const fix = args.includes('--fix');
  const [state, log, sidecar] = args.filter((arg) => arg !== '--json' && arg !== '--fix');
  if (state === undefined || state === '') {
    cli.err(USAGE);
    return 1;
  }
  const options = { logPath: log || undefined, sidecarPath: sidecar || undefined, env: cli.env, goalTool: toolNames(cli.env).goal };
  const { lintState } = await import('../../goal/lint/run.js');
  let fixed: { code: string; change: string }[] = [];
  if (fix) {
    const { fixState } = await import('../../goal/lint/fix.js');
    fixed = (await fixState(state, options)) ?? [];
  }
  const findings: Finding[] | undefined = lintState(state, options);
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
