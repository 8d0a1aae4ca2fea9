// Generated from schemas/pipeline-run.schema.json by npm run generate. Do not edit.
import type { JsonObject } from '../../core/json.js';

/**
 * This interface was referenced by `PipelineRun`'s JSON-Schema
 * via the `definition` "paths".
 */
export type Paths = string[];
/**
 * This interface was referenced by `PipelineRun`'s JSON-Schema
 * via the `definition` "keys".
 */
export type Keys = string[];

/**
 * A pipeline run's handoff bus (.ai_log/session-<label>.json): run variables, phase entries, the contract.
 */
export interface PipelineRun {
  session: string;
  phases: {
    [k: string]: Phase;
  };
  contract?: Contract;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `PipelineRun`'s JSON-Schema
 * via the `definition` "phase".
 */
export interface Phase {
  agent?: string;
  status: 'todo' | 'in_progress' | 'done';
  outputs: JsonObject;
  evidence: Paths;
  work_items: Paths;
  started_at?: string;
  finished_at?: string;
  gate?: {
    result: 'pass' | 'fail';
    at: string;
    missing?: Paths;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `PipelineRun`'s JSON-Schema
 * via the `definition` "contract".
 */
export interface Contract {
  file?: string;
  phases: {
    phase: string;
    agent?: string;
    inputs: Keys;
    outputs: Keys;
  }[];
  [k: string]: unknown;
}
