import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BatonError } from '../../core/errors.js';
import { checkStore, type Finding } from '../../doctor/checks.js';
import { harnessChecks } from '../../harness/harness-doctor.js';
import { runChecks } from '../../doctor/runs.js';
import { projectContext, type ProjectContext } from '../../project/project-context.js';
import { defaultRoot } from '../../project/root.js';
import { chooseStore, openStore, type Store } from '../../stores/index.js';
import { parseCommand } from '../args.js';
import { displayWidth } from '../display-width.js';
import { doctorDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';

/** Rows `ok|fail  CHECK  FIX` for every document under DIR; exit 1 when any row fails. */
export default async function doctor(args: string[], cli: CommandIo): Promise<number> {
  const { positionals, flags } = parseCommand(doctorDefinition(), args);
  const root = positionals[0] ? resolve(cli.cwd, positionals[0]) : defaultRoot(cli.cwd, cli.env);
  if (!existsSync(root)) throw new BatonError('not_found', `${root} does not exist; give the folder to check`);
  // The folder checked is the project: its config is read there and its root markers lead from there.
  const project = projectContext({ cwd: root, env: {}, workspace: root });
  const store = openStore({ ...chooseStore(cli.env, () => project.config), root });
  try {
    return await report(store, project, flags, cli);
  } finally {
    await store.close();
  }
}

async function report(
  store: Store,
  project: ProjectContext,
  flags: Record<string, unknown>,
  cli: CommandIo,
): Promise<number> {
  const root = project.configRoot;
  let findings = await checkAll(store, project, cli.env);
  const repaired: string[] = [];
  if (flags.repair) {
    for (const finding of findings.filter((f) => !f.ok)) {
      const done = await finding.repair?.(new Date());
      if (done) repaired.push(done);
    }
    if (repaired.length > 0) findings = await checkAll(store, project, cli.env);
  }
  if (flags.json) {
    cli.out(
      `${JSON.stringify({ root, ok: findings.every((f) => f.ok), checks: findings.map(({ ok, warn, check, fix }) => ({ ok, ...(warn ? { warn } : {}), check, fix })), repaired })}\n`,
    );
  } else {
    for (const line of repaired) cli.err(`baton doctor: ${line}\n`);
    if (findings.length === 0) cli.out(`ok    no baton documents under ${root}  —\n`);
    const width = Math.max(0, ...findings.map((f) => displayWidth(f.check)));
    for (const f of findings)
      cli.out(
        `${(f.warn ? 'warn' : f.ok ? 'ok' : 'fail').padEnd(4)}  ${f.check}${' '.repeat(width - displayWidth(f.check))}  ${f.fix}\n`,
      );
  }
  return findings.every((f) => f.ok) ? 0 : 1;
}

async function checkAll(store: Store, project: ProjectContext, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const findings = await checkStore(store, project.configRoot);
  // Harness rows when the project has a baton.config.json.
  findings.push(...(await harnessChecks(project, env)));
  // Pipeline runs: a warning when a run's state file is not git-ignored.
  findings.push(...runChecks(project.configRoot));
  return findings;
}
