// Generated from schemas/eneo-task.schema.json by npm run generate. Do not edit.

/**
 * The typed current-task document of the Eneo harness (.claude/state/current-task.json).
 */
export interface EneoTask {
  slug: string;
  lane?: string;
  bracket?: number | null;
  tenancy_impact?: string | null;
  audit_impact?: string | null;
  phase?: number | null;
  phase_total?: number | null;
  phase_name?: string | null;
  tdd_phase: 'RED' | 'GREEN' | 'REFACTOR' | 'FREE';
  wave?: number | null;
  wave_total?: number | null;
  wave_status: {
    [k: string]: 'pending' | 'in_progress' | 'done';
  };
  active_agents: string[];
  status: 'in_progress' | 'blocked' | 'verified' | 'done';
  started_at: string;
  last_update: string;
  next_hint?: string | null;
  prd_issue?: number | null;
  last_pr?: number | null;
  [k: string]: unknown;
}
