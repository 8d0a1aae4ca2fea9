import { BatonError } from '../errors.js';
import type { Json } from './values.js';

export type JqErrorCode = 'jq_syntax' | 'jq_runtime' | 'jq_unsupported' | 'jq_budget';

/**
 * What to do about an error, appended to its message. Runtime errors keep jq's own words: they
 * already name the values involved, and `error("...")` messages belong to the expression's author.
 */
const HINTS: Record<JqErrorCode, string | undefined> = {
  jq_syntax: 'fix the jq expression (in a shell, wrap it in single quotes)',
  jq_runtime: undefined,
  jq_budget:
    'make the expression do less, or raise the budget for this call (--jq-steps N, --jq-timeout-ms MS) or for the project ("limits" in baton.config.json)',
  jq_unsupported:
    'baton refuses what it cannot evaluate exactly as jq 1.6 does: rewrite the expression, or compute the value outside and pass it with --arg/--argjson',
};

/**
 * The one error type callers see; `code` is stable, the message is a single line. A BatonError,
 * so the CLI's error boundary maps it to exit 2 like any other expression error.
 */
export class JqError extends BatonError {
  declare readonly code: JqErrorCode;
  position?: number;
  constructor(code: JqErrorCode, message: string, position?: number, hint = HINTS[code]) {
    const line = message.replace(/\s*\n\s*/g, ' ');
    super(code, hint ? `${line}; ${hint}` : line);
    this.name = 'JqError';
    if (position !== undefined) this.position = position;
  }
}

/**
 * A jq-level error value in flight. Not an Error subclass: jq programs raise and catch
 * these routinely (`?`, `try`, `label/break`), and stack capture would dominate cost.
 */
export class Raised {
  constructor(
    public value: Json,
    public label?: number,
  ) {}
}

export function unsupported(what: string, position?: number): JqError {
  return new JqError('jq_unsupported', `unsupported in baton's jq engine: ${what}`, position);
}

export function syntaxError(message: string, position?: number): JqError {
  return new JqError('jq_syntax', message, position);
}
