/**
 * A run document over the engine's Doc: every write is one locked read-modify-write validated by
 * the `pipeline-run` schema and kept in history. The run commands only add what the bus needs on
 * top: the compat "no state file" message and the size limits.
 */
import { BatonError, isBatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import { builtinSchema } from '../core/schema/builtin-schemas.js';
import { OPERATION, type Doc, type Updater, type WriteResult } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import type { Phase as PhaseEntry, PipelineRun as RunDoc } from '../generated/types/pipeline-run.js';
import { pipeline_run as isRunDoc } from '../generated/validators.js';
import { DEFAULT_LIMITS, type SizeLimits } from './size-limits.js';
import { locateRun, type RunLocation } from './location.js';
import { HELPER_LOCK_TIMEOUT_MS, runtimeOptions } from '../core/runtime-options.js';

/** The run and its phase entries, typed from schemas/pipeline-run.schema.json (src/generated/types). */
export type { Phase as PhaseEntry, PipelineRun as RunDoc } from '../generated/types/pipeline-run.js';
export type PhaseStatus = PhaseEntry['status'];

/** The operations the pipeline-run schema's `sealed` rule names. */
export type RunOperation = 'run.init' | 'phase' | 'gate';

export interface RunContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  writer?: string | undefined;
  limits?: SizeLimits;
}

export class Run {
  readonly location: RunLocation;
  readonly doc: Doc;

  constructor(
    ref: string,
    readonly context: RunContext,
    name?: string,
  ) {
    this.location = locateRun(ref, { cwd: context.cwd, env: context.env, name });
    this.doc = openDoc(this.location.file, {
      cwd: context.cwd,
      // The root was found once already; pin it so the store agrees with locateRun.
      env: { ...context.env, BATON_ROOT: this.location.root },
      maxValueBytes: (context.limits ?? DEFAULT_LIMITS).maxBytes,
      lockTimeoutMs: runtimeOptions(context.env, { lockTimeoutMs: HELPER_LOCK_TIMEOUT_MS }).lockTimeoutMs,
      ...(context.writer !== undefined ? { writer: context.writer } : {}),
    });
  }

  get limits(): SizeLimits {
    return this.context.limits ?? DEFAULT_LIMITS;
  }

  /** The committed run, or the compat error when there is none. */
  async read(): Promise<RunDoc> {
    const doc = await this.doc.read();
    if (doc === undefined) throw this.missing();
    return this.typed(doc);
  }

  /**
   * Read-modify-write inside the lock; a missing run gives the compat "run 'init' first". `change`
   * edits the run in place. Only a `phase` or `gate` operation may change `phases` (the schema
   * seals them); a field write names none.
   */
  async update(change: (run: RunDoc) => void, operation?: RunOperation): Promise<WriteResult> {
    const updater: Updater = (doc) => {
      change(this.typed(doc));
      return doc;
    };
    try {
      return await this.doc.update(updater, {}, operation ? { [OPERATION]: operation } : {});
    } catch (error) {
      if (isBatonError(error, 'not_found')) throw this.missing();
      throw error;
    }
  }

  /** The document as a run; one edited outside baton into another shape is refused (invalid, exit 3). */
  private typed(doc: Json): RunDoc {
    if (isRunDoc(doc)) return doc;
    const [issue] = builtinSchema('pipeline-run')?.validate(doc) ?? [];
    throw new BatonError(
      'invalid',
      `${this.location.file} is not a pipeline run (${issue?.path}: ${issue?.message}); restore it with baton revert, or start again with run init`,
    );
  }

  missing(): BatonError {
    return new BatonError('not_found', `no state file at ${this.location.file} (run 'init' first)`);
  }
}
