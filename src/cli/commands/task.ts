/**
 * `baton task <op>`: the Eneo task-state operations on the project's task document,
 * with the compat exit codes and `[state]` messages, so `compat/eneo/lib/state.sh` is a thin
 * wrapper. Values after `--` are taken literally (a value may start with `-`).
 *
 *   init SLUG LANE BRACKET TENANCY AUDIT     update [--if-exists] -- EXPR [NAME VALUE]...
 *   get EXPR [--default TEXT]                phase-set RED|GREEN|REFACTOR|FREE
 *   next-hint-consume    clear               wave-start WAVE EXPECTED [--total N] [--agents JSON]
 *   path task|phase|wave|locks               lock NAME [--pid PID]        unlock HANDLE
 * (path, lock and unlock serve the original library's path and lock functions in state.sh.)
 */
import { EXIT } from '../../core/errors.js';
import type { Json } from '../../core/json.js';
import { STATE_FACE, stateExit } from '../../harness/task/task-errors.js';
import type { CommandIo } from '../../core/command-io.js';
import { parseLoose } from '../args.js';
import { errorUsage, taskDefinition, usageLine } from '../definitions.js';

/**
 * The usage lines come from the command's definition, as `baton help task` shows them: the
 * compat helpers (compat/eneo/lib/state.sh) check their arguments and print the original's
 * usage themselves, so a usage error reaching here comes from someone typing `baton task`.
 */
const DEF = taskDefinition();
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Errors are reported as the Eneo helpers reported them. */
export const face = () => STATE_FACE;

export default async function task(args: string[], cli: CommandIo): Promise<number> {
  const [op, ...rest] = args;
  const usage = op !== undefined && Object.hasOwn(DEF.subcommands ?? {}, op) ? usageLine(DEF, op) : undefined;
  const misuse = (message: string, exitCode: number = EXIT.usage) => stateExit('usage', exitCode, message);
  if (!op || !usage) throw misuse(errorUsage(DEF));
  const { flags, positionals } = parseLoose(DEF, rest);
  const ops = await import('../../harness/task/ops.js');
  const { taskSetup } = await import('../../harness/task/setup.js');
  const setup = taskSetup(cli);
  switch (op) {
    case 'init':
      if (positionals.length !== 5) throw misuse(usage);
      await ops.taskInit(setup, cli, positionals);
      return 0;
    case 'update': {
      const [expr, ...pairs] = positionals;
      if (expr === undefined || pairs.length % 2 !== 0) throw misuse(usage);
      const vars: Record<string, Json> = {};
      for (let i = 0; i < pairs.length; i += 2) {
        const [name, value] = [pairs[i] as string, pairs[i + 1] as string];
        const json = name.startsWith('json:');
        const id = json ? name.slice(5) : name;
        if (!IDENT.test(id)) throw misuse(`${usage}\n[state] argument name '${name}' is not a jq identifier`);
        try {
          vars[id] = json ? (JSON.parse(value) as Json) : value;
        } catch {
          throw misuse(`invalid JSON for argument ${id}`, EXIT.refused);
        }
      }
      await ops.taskUpdate(setup, cli, expr, vars, flags['if-exists'] === true);
      return 0;
    }
    case 'get': {
      if (positionals.length !== 1) throw misuse(usage);
      const { taskGet } = await import('../../harness/task/get.js');
      return await taskGet(setup, cli, positionals[0] as string, flags.default ?? '');
    }
    case 'phase-set':
      if (positionals.length !== 1) throw misuse(usage);
      await ops.phaseSet(setup, positionals[0] as string);
      return 0;
    case 'next-hint-consume':
      cli.out(`${await ops.nextHintConsume(setup)}\n`);
      return 0;
    case 'clear':
      await ops.taskClear(setup);
      return 0;
    case 'path': {
      const paths: Record<string, string> = {
        task: setup.taskPath,
        phase: ops.mirrorPath(setup),
        wave: setup.waveFile,
        locks: `${setup.stateDir}/.locks`,
      };
      const path = positionals.length === 1 ? paths[positionals[0] as string] : undefined;
      if (path === undefined) throw misuse(usage);
      cli.out(`${path}\n`);
      return 0;
    }
    case 'lock': {
      const pid = flags.pid === undefined ? process.ppid : Number(flags.pid);
      if (positionals.length !== 1 || !Number.isInteger(pid) || pid <= 0) throw misuse(usage);
      const { shellLock } = await import('../../harness/task/shell-lock.js');
      cli.out(`${await shellLock(setup, positionals[0] as string, pid)}\n`);
      return 0;
    }
    case 'unlock': {
      if (positionals.length !== 1) throw misuse(usage);
      (await import('../../harness/task/shell-lock.js')).shellUnlock(positionals[0] as string);
      return 0;
    }
    default: {
      const [wave, expected] = positionals;
      const { total } = flags;
      if (
        positionals.length !== 2 ||
        !/^\d+$/.test(wave ?? '') ||
        !/^\d+$/.test(expected ?? '') ||
        (total !== undefined && !/^\d+$/.test(total))
      )
        throw misuse(usage);
      let agents: Json | undefined;
      if (flags.agents !== undefined) {
        try {
          agents = JSON.parse(flags.agents) as Json;
        } catch {
          throw misuse('invalid JSON for argument agents', EXIT.refused);
        }
        if (!Array.isArray(agents)) throw misuse(`${usage}\n[state] --agents must be a JSON array of agent types`);
      }
      const cleared = await ops.waveStart(setup, {
        wave: Number(wave),
        expected: Number(expected),
        ...(total !== undefined ? { total: Number(total) } : {}),
        ...(agents !== undefined ? { agents } : {}),
      });
      if (cleared !== undefined)
        cli.err(
          `[state] wave ${wave} started; next_hint ${JSON.stringify(cleared)} cleared (read it with next-hint-consume before wave-start to keep it)\n`,
        );
      return 0;
    }
  }
}
