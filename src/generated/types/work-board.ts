// Generated from schemas/work-board.schema.json by npm run generate. Do not edit.
import type { JsonObject } from '../../core/json.js';

/**
 * This interface was referenced by `WorkBoard`'s JSON-Schema
 * via the `definition` "id".
 */
export type Id = string;
/**
 * This interface was referenced by `WorkBoard`'s JSON-Schema
 * via the `definition` "time".
 */
export type Time = string;
/**
 * This interface was referenced by `WorkBoard`'s JSON-Schema
 * via the `definition` "agent".
 */
export type Agent = string;

/**
 * The work board of parallel agents (.claude/state/board.json): items with dependencies and reserved paths, claims with leases. Written only through baton work.
 */
export interface WorkBoard {
  items: {
    [k: string]: Item;
  };
  /**
   * How many claims were ever made: each claim's fencing token is the next number.
   */
  claims: number;
}
/**
 * This interface was referenced by `WorkBoard`'s JSON-Schema
 * via the `definition` "item".
 */
export interface Item {
  title: string;
  /**
   * @maxItems 100
   */
  after: Id[];
  /**
   * @maxItems 100
   */
  paths: string[];
  fields: JsonObject;
  status: 'open' | 'blocked' | 'done';
  added_at: Time;
  claim?: Claim;
  reason?: string;
  done_by?: Agent;
  done_at?: Time;
}
/**
 * This interface was referenced by `WorkBoard`'s JSON-Schema
 * via the `definition` "claim".
 */
export interface Claim {
  agent: Agent;
  token: number;
  since: Time;
  expires: Time;
  /**
   * The lease in seconds: a heartbeat renews it for as long again.
   */
  lease: number;
  /**
   * The host session of the agent that claimed (BATON_SESSION, exported by the PreToolUse hook): SessionEnd ends its claims.
   */
  session?: string;
}
