/**
 * The environment variables that tune how baton runs, read in this one place: every face (the
 * CLI, the MCP server, the task and run commands, the library's openDoc) asks runtimeOptions()
 * instead of parsing a variable itself. A value that is unset, empty, not a number or not
 * positive is ignored: a typo in an environment variable must not turn a budget into 0 or NaN.
 * docs/cli.md lists them (generated from ENVIRONMENT).
 */

export interface RuntimeOptions {
  /** How long a write waits for a document's lock before exit 6 (`lock_timeout`). */
  lockTimeoutMs: number;
  /** Heartbeat age past which a lock held from another host is taken over. */
  lockStaleMs: number;
  /** Names this machine in lock records; undefined: its hostname. */
  hostId?: string;
  /** Largest string value a CLI write accepts; undefined: the schema's or the engine's limit. */
  maxValueBytes?: number;
  /** A process that holds the Eneo helpers' state lock and runs this command under it. */
  lockHolderPid?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/**
 * The lock budget of `baton task` and `baton run`/`phase`/`gate`: they stand in for shell helpers
 * that agents call from hooks and finish together, where a quick exit 6 beats a 30 s stall.
 */
export const HELPER_LOCK_TIMEOUT_MS = 5_000;
/**
 * The lock budget of the hook handlers that write a document on the side (the prompt audit's task
 * stamp, the PreCompact revision): the host waits on the hook, and a stamp or revision skipped (it
 * is logged) costs less than a user prompt held up behind a long write.
 */
export const HOOK_LOCK_TIMEOUT_MS = 3_000;
export const DEFAULT_LOCK_STALE_MS = 60_000;

export const ENVIRONMENT: readonly { name: string; option: keyof RuntimeOptions; help: string }[] = [
  {
    name: 'BATON_LOCK_TIMEOUT_MS',
    option: 'lockTimeoutMs',
    help: `how long a write waits for a document's lock before exit 6 (default ${DEFAULT_LOCK_TIMEOUT_MS} ms; ${HELPER_LOCK_TIMEOUT_MS} ms for run, phase, gate and task; ${HOOK_LOCK_TIMEOUT_MS} ms for the prompt-audit and PreCompact hooks)`,
  },
  {
    name: 'BATON_LOCK_STALE_MS',
    option: 'lockStaleMs',
    help: `heartbeat age past which a lock held from another host is taken over (default ${DEFAULT_LOCK_STALE_MS} ms)`,
  },
  {
    name: 'BATON_HOST_ID',
    option: 'hostId',
    help: 'names this machine in lock records, where hostnames do not tell machines apart (default: the hostname)',
  },
  {
    name: 'BATON_MAX_VALUE_BYTES',
    option: 'maxValueBytes',
    help: 'largest string value a CLI write accepts (default 64 KiB; a schema’s x-baton.maxValueBytes wins)',
  },
  {
    name: 'BATON_LOCK_HOLDER_PID',
    option: 'lockHolderPid',
    help: '`baton task` runs inside the state lock this process holds (`eneo_task_update_unlocked` sets it)',
  },
];

/**
 * The options `env` sets, over the defaults of the face that asks (`baton task` and the run
 * commands pass `{ lockTimeoutMs: HELPER_LOCK_TIMEOUT_MS }`, the hook handlers that write
 * `HOOK_LOCK_TIMEOUT_MS`).
 */
export function runtimeOptions(
  env: Record<string, string | undefined>,
  defaults: Partial<Pick<RuntimeOptions, 'lockTimeoutMs' | 'lockStaleMs'>> = {},
): RuntimeOptions {
  const hostId = env.BATON_HOST_ID || undefined;
  const maxValueBytes = positive(env.BATON_MAX_VALUE_BYTES);
  const lockHolderPid = positive(env.BATON_LOCK_HOLDER_PID);
  return {
    lockTimeoutMs: positive(env.BATON_LOCK_TIMEOUT_MS) ?? defaults.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    lockStaleMs: positive(env.BATON_LOCK_STALE_MS) ?? defaults.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
    ...(hostId !== undefined ? { hostId } : {}),
    ...(maxValueBytes !== undefined ? { maxValueBytes } : {}),
    ...(lockHolderPid !== undefined ? { lockHolderPid } : {}),
  };
}

/** As the faces always read these: `Number()` of the text, kept when finite and above 0. */
function positive(raw: string | undefined): number | undefined {
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
