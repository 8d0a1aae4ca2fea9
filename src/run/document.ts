/**
 * A run document over the engine's Doc: every write is one locked read-modify-write validated by
 * the `pipeline-run` schema and kept in history. The run commands only add what the bus needs on
 * top: the compat "no state file" message and the size limits.
 */
import { BatonError, isBatonError } from '../core/errors.js';
import type { Json, JsonObject } from '../core/json.js';
import { OPERATION, type Doc, type Updater, type WriteResult } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import type { Contract } from './contract.js';
import { DEFAULT_LIMITS, type SizeLimits } from './limits.js';
import { locateRun, type RunLocation } from './location.js';

export type PhaseStatus = 'todo' | 'in_progress' | 'done';

export interface PhaseEntry {
  agent?: string;
  status: PhaseStatus;
  outputs: JsonObject;
  evidence: string[];
  work_items: string[];
  started_at?: string;
  finished_at?: string;
  /** The last `baton gate` verdict; cleared when the phase starts or finishes again. */
  gate?: { result: 'pass' | 'fail'; at: string; missing?: string[] };
}

export interface RunDoc {
  session: string;
  phases: Record<string, PhaseEntry>;
  contract?: Contract;
  [field: string]: Json | undefined | Record<string, PhaseEntry> | Contract;
}

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
    const timeout = Number(context.env.BATON_LOCK_TIMEOUT_MS);
    this.doc = openDoc(this.location.file, {
      cwd: context.cwd,
      // The root was found once already; pin it so the store agrees with locateRun.
      env: { ...context.env, BATON_ROOT: this.location.root },
      maxValueBytes: (context.limits ?? DEFAULT_LIMITS).maxBytes,
      // 5 s by default: parallel agents finishing together is the normal case.
      lockTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 5000,
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
    return doc as unknown as RunDoc;
  }

  /**
   * Read-modify-write inside the lock; a missing run gives the compat "run 'init' first". Only a
   * `phase` or `gate` operation may change `phases` (the schema seals them); a field write names none.
   */
  async update(change: (run: RunDoc) => RunDoc | void, operation?: RunOperation): Promise<WriteResult> {
    const updater: Updater = (doc) => {
      const run = doc as unknown as RunDoc;
      return (change(run) ?? run) as unknown as JsonObject;
    };
    try {
      return await this.doc.update(updater, {}, operation ? { [OPERATION]: operation } : {});
    } catch (error) {
      if (isBatonError(error, 'not_found')) throw this.missing();
      throw error;
    }
  }

  missing(): BatonError {
    return new BatonError('not_found', `no state file at ${this.location.file} (run 'init' first)`);
  }
}
