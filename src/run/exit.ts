import { BatonError, EXIT, isBatonError } from '../core/errors.js';

/**
 * The run bus keeps the original script's exit codes: 0 success, 2 a usage error in
 * baton's own syntax (bad label, phase key, enum, --json value, contract file), and 1 for every
 * refusal, including ones the engine reports with finer codes (lock timeout 6, schema 3, size 4).
 * Scripts written against pipeline-state.sh test for 0/1, so a 6 would read as "unknown failure".
 */
export function runExitCode(error: BatonError): number {
  if (error.code === 'usage' || error.code === 'jq_syntax') return EXIT.usage;
  if (error.code === 'internal') return EXIT.internal;
  // New with the sealed run fields: a write the original allowed and baton refuses on purpose.
  if (error.code === 'forbidden') return EXIT.forbidden;
  return EXIT.refused;
}

/** Writes the one-line error and returns the exit code; anything but a BatonError is rethrown. */
export function reportRunError(error: unknown, err: (text: string) => void, prefix: string): number {
  if (!isBatonError(error)) throw error;
  err(`${prefix}${error.message}\n`);
  return runExitCode(error);
}
