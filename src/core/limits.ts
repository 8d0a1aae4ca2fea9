/**
 * The budgets and size limits every write and every jq run is held to, so that no input (an
 * expression, a value, a document) can hang a writer while it holds the lock, exhaust Node's
 * memory, or overflow the stack. Each has a default here; a project overrides them in the
 * `limits` section of baton.config.json (checked by its schema), and a caller per call (library
 * options, CLI flags). This module holds the names and defaults only: no I/O.
 */
import { BatonError } from './errors.js';
import type { Json } from './json.js';

export interface Limits {
  /**
   * Evaluation steps one jq run may take. Every evaluated term costs a step, and so does every
   * element a run allocates (array items, object entries, 16 characters of string), which
   * bounds the memory a run can claim as well as its time: `[range(1e9)]` stops at the budget.
   */
  jqSteps: number;
  /** Milliseconds one jq run may take, whatever its step count. */
  jqTimeoutMs: number;
  /** Deepest nesting of arrays and objects in a document or a jq result. */
  maxDepth: number;
  /** Largest document, in characters of compact JSON. */
  maxDocumentBytes: number;
}

/**
 * Measured 2026-12-01 on the shared 2-core dev machine (loaded, so figures are rough): a CLI
 * `update` with `last(range(infinite))` exhausts 20 M steps in ~1.0 s of wall time, and
 * `[range(1e9)]` stops at ~10 M numbers and ~300 MB of peak memory (it crashed V8 before).
 * The time budget catches what steps do not (one slow native call on a large value). jq 1.6's
 * own parser stops at depth 256 (MAX_PARSING_DEPTH), so no document jq reads is refused here.
 * 16 MiB is far above any state document yet keeps one write (file, history line, the diff
 * behind it) to tens of MB of memory.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  jqSteps: 20_000_000,
  jqTimeoutMs: 5_000,
  maxDepth: 256,
  maxDocumentBytes: 16 * 1024 * 1024,
});

/**
 * The deepest nesting any configuration may allow. Measured: at depth 2,000 the write path's own
 * recursion (history replay, serialisation) overflows Node's default stack; 1,000 passes every
 * command. A file edited outside baton beyond this depth reads as corrupt (`doctor --repair`).
 * schemas/baton.config.schema.json holds the same ceiling for `limits.maxDepth`.
 */
export const MAX_DEPTH_CEILING = 1000;

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** Defaults overridden by each layer in turn (project config, then the call); bad values are skipped. */
export function resolveLimits(...layers: (Partial<Limits> | Record<string, unknown> | undefined)[]): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    if (!layer || typeof layer !== 'object') continue;
    for (const name of LIMIT_NAMES) {
      const value = (layer as Record<string, unknown>)[name];
      if (Number.isSafeInteger(value) && (value as number) > 0) out[name] = value as number;
    }
  }
  out.maxDepth = Math.min(out.maxDepth, MAX_DEPTH_CEILING);
  return out;
}

/**
 * Refuses (`too_large`, exit 4) a value nested deeper than `maxDepth` or larger than
 * `maxDocumentBytes` as compact JSON (a character counts as one byte). Iterative, and it stops
 * at the first excess, so it is safe on exactly the values it refuses: a recursive walk (JSON
 * serialisation, diffing, validation) overflows the stack on them.
 */
export function checkShape(value: Json, limits: Pick<Limits, 'maxDepth' | 'maxDocumentBytes'>, what: string): void {
  const { maxDepth, maxDocumentBytes } = limits;
  const values: Json[] = [value];
  const depths: number[] = [0];
  let bytes = 0;
  while (values.length > 0) {
    const v = values.pop() as Json;
    const depth = depths.pop() as number;
    if (typeof v === 'string') bytes += v.length + 2;
    else if (typeof v === 'number') bytes += String(v).length;
    else if (v === null || typeof v === 'boolean') bytes += 5;
    else {
      if (depth >= maxDepth) {
        throw new BatonError(
          'too_large',
          `${what} is nested deeper than ${maxDepth} levels (maxDepth); flatten it, or raise "limits": {"maxDepth": N} in baton.config.json`,
        );
      }
      if (Array.isArray(v)) {
        bytes += v.length + 1;
        if (bytes <= maxDocumentBytes)
          for (const item of v) {
            values.push(item);
            depths.push(depth + 1);
          }
      } else {
        for (const key of Object.keys(v)) {
          bytes += key.length + 4;
          values.push(v[key] as Json);
          depths.push(depth + 1);
        }
        bytes += 1;
      }
    }
    if (bytes > maxDocumentBytes) {
      throw new BatonError(
        'too_large',
        `${what} is over ${maxDocumentBytes} bytes as JSON (maxDocumentBytes); keep large content in a file and record its path, or raise "limits": {"maxDocumentBytes": N} in baton.config.json`,
      );
    }
  }
}

/** Whether `value` nests arrays and objects deeper than `max` (iterative, stops at the first). */
export function depthOver(value: Json, max: number): boolean {
  const values: Json[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop() as Json;
    const depth = depths.pop() as number;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) {
      if (item !== null && typeof item === 'object') {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
