/**
 * "Never store a large blob, store a path". A run field is a key value or a path; a
 * report pasted into it defeats the point of the bus (every later agent pays for it again), so
 * a value over `warnBytes` is flagged and one over `maxBytes` is refused unless the caller says
 * `--allow-large`. Sizes are of the serialised value, so a big list counts as a whole.
 *
 * Why not the schema's `x-baton.maxValueBytes`: the schema's limit wins over the caller's, so it
 * could not be raised per call or per project; the run commands check here and hand the same
 * limit to the engine, which then refuses any oversize string nested anywhere as a backstop.
 */
import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';

export interface SizeLimits {
  warnBytes: number;
  maxBytes: number;
}

export const DEFAULT_LIMITS: SizeLimits = { warnBytes: 1024, maxBytes: 4096 };

/** BATON_RUN_MAX_VALUE_BYTES / BATON_RUN_WARN_VALUE_BYTES configure a project; --allow-large lifts the cap. */
export function limitsFrom(env: NodeJS.ProcessEnv, allowLarge: boolean): SizeLimits {
  const max = positive(env.BATON_RUN_MAX_VALUE_BYTES) ?? DEFAULT_LIMITS.maxBytes;
  const warn = positive(env.BATON_RUN_WARN_VALUE_BYTES) ?? Math.min(DEFAULT_LIMITS.warnBytes, max);
  return { warnBytes: warn, maxBytes: allowLarge ? Number.MAX_SAFE_INTEGER : max };
}

/** Returns a warning line for a value over the soft limit; throws for one over the hard limit. */
export function checkSize(field: string, value: Json, limits: SizeLimits): string | undefined {
  const bytes = Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
  if (bytes > limits.maxBytes) {
    throw new BatonError(
      'too_large',
      `${field} is ${bytes} bytes, over the ${limits.maxBytes}-byte limit for run fields; write the content to a file under .ai_log/ or docs/ and store its path (or pass --allow-large)`,
    );
  }
  if (bytes > limits.warnBytes)
    return `warning: ${field} is ${bytes} bytes; store the content under .ai_log/ and save its path`;
  return undefined;
}

function positive(text: string | undefined): number | undefined {
  const value = Number(text);
  return text && Number.isFinite(value) && value > 0 ? value : undefined;
}
