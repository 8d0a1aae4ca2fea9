/**
 * The one error type baton throws. `code` is stable and documented (README "Exit codes"); callers and
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
  internal: 70,
} as const;

export type ErrorCode =
  | 'usage'
  | 'not_found'
  | 'exists'
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
  | 'corrupt'
  | 'io'
  | 'internal';

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  usage: EXIT.usage,
  not_found: EXIT.refused,
  exists: EXIT.refused,
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
  corrupt: EXIT.corrupt,
  io: EXIT.refused,
  internal: EXIT.internal,
};

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
  readonly exitCode: number;
  /** Validation issues, collected rather than stopping at the first. */
  readonly issues: Issue[];

  constructor(code: ErrorCode, message: string, options: { issues?: Issue[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.exitCode = EXIT_BY_CODE[code];
    this.issues = options.issues ?? [];
  }
}

export function isBatonError(error: unknown, code?: ErrorCode): error is BatonError {
  return typeof error === 'object' && error !== null && BRAND in error && (code === undefined || (error as BatonError).code === code);
}
