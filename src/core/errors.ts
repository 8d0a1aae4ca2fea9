/**
 * The one error type baton throws. `code` is stable and documented (docs/troubleshooting.md, "Exit codes"); callers and
 * tests match on it, never on message text. Messages are one line and name the fix.
 */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  invalid: 3,
  unsafe: 4,
  forbidden: 5,
  lockTimeout: 6,
  corrupt: 7,
  io: 8,
  internal: 70,
} as const;

export type ErrorCode =
  | 'usage'
  | 'not_found'
  | 'exists'
  | 'conflict'
  | 'jq_syntax'
  | 'jq_runtime'
  | 'jq_unsupported'
  | 'jq_budget'
  | 'jq_result'
  | 'invalid'
  | 'too_large'
  | 'unsafe_path'
  | 'forbidden'
  | 'lock_timeout'
  | 'lock_lost'
  | 'corrupt'
  | 'io'
  | 'internal';

/** baton's own exit code for each error code (docs/troubleshooting.md, "Exit codes", lists them). */
export const EXIT_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  usage: EXIT.usage,
  not_found: EXIT.refused,
  exists: EXIT.refused,
  conflict: EXIT.refused,
  jq_syntax: EXIT.usage,
  jq_runtime: EXIT.usage,
  jq_unsupported: EXIT.usage,
  jq_budget: EXIT.usage,
  jq_result: EXIT.usage,
  invalid: EXIT.invalid,
  too_large: EXIT.unsafe,
  unsafe_path: EXIT.unsafe,
  forbidden: EXIT.forbidden,
  lock_timeout: EXIT.lockTimeout,
  lock_lost: EXIT.lockTimeout,
  corrupt: EXIT.corrupt,
  io: EXIT.io,
  internal: EXIT.internal,
};

/**
 * The exit codes of the commands that stand in for other tools: scripts written against those
 * tools test for their codes, so every refusal exits 1 (refused) except the codes listed here.
 * docs/pipeline-state.md, docs/eneo.md and docs/orchestrate.md document them.
 */
export const COMPAT_EXITS = {
  /** `baton run`, `phase` and `gate` (pipeline-state.sh), and the writes baton refuses on purpose. */
  runBus: { usage: EXIT.usage, jq_syntax: EXIT.usage, forbidden: EXIT.forbidden, internal: EXIT.internal },
  /** `baton task` (the Eneo task-state helpers); "no current task" is their 3, set where it is raised. */
  taskState: { usage: EXIT.usage },
  /** `baton goal` (goal.sh); "the user must choose" is its 3, an answer rather than an error. */
  goal: { usage: EXIT.usage },
} as const satisfies Record<string, Partial<Record<ErrorCode, number>>>;

/**
 * How a command that stands in for another tool reports an error: that tool's exit code and the
 * lead its message lines had, in place of baton's code and its `baton <command>: ` lead.
 */
export interface CompatFace {
  /** Printed before the message (`[state] `, `goal.sh: `, `Error: `). */
  lead: string;
  /** The exit codes that are not 1 (one of `COMPAT_EXITS`). */
  codes: Partial<Record<ErrorCode, number>>;
}

/** The exit code and lead one error is reported with by a compat face. */
export interface CompatExit {
  exitCode: number;
  lead: string;
}

export interface Issue {
  path: string;
  message: string;
}

/**
 * Each CLI command is its own bundle with its own copy of this class, so `instanceof` fails across
 * bundles; a registered symbol brands every BatonError wherever it was built.
 */
const BRAND = Symbol.for('baton.BatonError');

export class BatonError extends Error {
  override name = 'BatonError';
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  /** baton's code for `code`, or the one a compat face gave this error. */
  readonly exitCode: number;
  /** Set when a compat face reports this error (see `CompatFace`); baton's own lead otherwise. */
  readonly compat: CompatExit | undefined;
  /** Validation issues, collected rather than stopping at the first. */
  readonly issues: Issue[];

  constructor(
    code: ErrorCode,
    message: string,
    options: { issues?: Issue[]; cause?: unknown; compat?: CompatExit } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.compat = options.compat;
    this.exitCode = options.compat?.exitCode ?? EXIT_BY_CODE[code];
    this.issues = options.issues ?? [];
  }
}

/** `error` as `face` reports it: same code and message; an error that already carries its compat exit keeps it. */
export function inFace(error: BatonError, face: CompatFace): BatonError {
  if (error.compat) return error;
  const exitCode = face.codes[error.code] ?? EXIT.refused;
  return new BatonError(error.code, error.message, {
    issues: error.issues,
    cause: error,
    compat: { exitCode, lead: face.lead },
  });
}

export function isBatonError(error: unknown, code?: ErrorCode): error is BatonError {
  return (
    typeof error === 'object' &&
    error !== null &&
    BRAND in error &&
    (code === undefined || (error as BatonError).code === code)
  );
}

/** What the system said, in words a user can act on, for errors that are the machine's, not baton's. */
const SYSTEM_FIXES: Record<string, string> = {
  EACCES: 'permission denied; give this user access to it or run baton as its owner',
  EPERM: 'operation not permitted; give this user access to it or run baton as its owner',
  EROFS: 'the file system is read-only; remount it read-write or keep the document elsewhere',
  ENOSPC: 'no space left on the device; free some space and retry',
  EDQUOT: 'disk quota exceeded; free some space and retry',
  EISDIR: 'a folder is where a file should be; move the folder away',
  ENOTDIR: 'a file is where a folder should be; move the file away',
  ELOOP: 'a symbolic link loops, or the path has too many; put the file itself there',
  ENAMETOOLONG: 'the path is too long; shorten it',
  EMFILE: 'too many open files; raise the limit (ulimit -n) or retry',
  ENFILE: 'too many open files on the system; retry',
  EIO: 'the device reported an I/O error; check the disk',
};

/** The fix for a system error (`permission denied; give this user access ...`), or undefined when `error` is not one. */
export function systemFix(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  return `${SYSTEM_FIXES[code] ?? 'the system refused; check the path and retry'} (${code})`;
}

/**
 * A system error (EACCES, ENOSPC, EROFS, ...) as a one-line `io` BatonError naming the path and
 * the fix, or undefined when `error` is not one: those remain internal errors (bugs).
 */
export function fromSystemError(error: unknown): BatonError | undefined {
  const fix = systemFix(error);
  const { path, syscall } = error as { path?: unknown; syscall?: unknown };
  if (fix === undefined || typeof syscall !== 'string') return undefined;
  return new BatonError('io', `cannot ${syscall} ${typeof path === 'string' ? path : '(no path)'}: ${fix}`, {
    cause: error,
  });
}
