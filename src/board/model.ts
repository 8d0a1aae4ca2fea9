/**
 * The work board's rules, as edits of the board inside one locked read-modify-write (the body of
 * one `Doc.update`): whatever two agents race for, each decides against the committed board, so
 * a claim has exactly one winner on every store. Nothing here does I/O or reads the clock.
 */
import { BatonError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { Claim, Item, WorkBoard } from '../generated/types/work-board.js';
import { globsOverlap } from './globs.js';

export type { Claim, Item, WorkBoard } from '../generated/types/work-board.js';

/** Where the board lives, relative to the project root (a document of its own, outside `.baton/`). */
export const BOARD_KEY = '.claude/state/board.json';

export const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/** A lease longer than a day is a claim nobody renews: bounded like every input. */
export const MAX_LEASE_SECONDS = 86_400;
/** Long enough for a subagent's step between two heartbeats. */
export const DEFAULT_LEASE_SECONDS = 900;

export interface NewItem {
  id: string;
  title: string;
  after?: string[];
  paths?: string[];
  fields?: JsonObject;
}

export function emptyBoard(): WorkBoard {
  return { items: {}, claims: 0 };
}

export function checkId(id: string): string {
  if (!ID.test(id))
    throw new BatonError(
      'usage',
      `invalid item id ${JSON.stringify(id)}: use letters, digits, '.', '_', ':' or '-' (at most 128, starting with a letter or digit)`,
    );
  return id;
}

export function checkLease(seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_LEASE_SECONDS)
    throw new BatonError('usage', `--lease must be a whole number of seconds from 1 to ${MAX_LEASE_SECONDS}`);
  return seconds;
}

export function addItem(board: WorkBoard, spec: NewItem, now: Date): Item {
  checkId(spec.id);
  if (board.items[spec.id]) throw new BatonError('exists', `item ${spec.id} is already on the board; pick another id`);
  const after = [...new Set(spec.after ?? [])];
  for (const dep of after) {
    checkId(dep);
    // Only items already there: a board built in order can hold no cycle.
    if (!board.items[dep])
      throw new BatonError(
        'not_found',
        `item ${spec.id} comes after ${dep}, which is not on the board; add ${dep} first`,
      );
  }
  const paths = [...new Set(spec.paths ?? [])];
  checkParallelPaths(board, spec.id, after, paths);
  const item: Item = {
    title: spec.title,
    after,
    paths,
    fields: spec.fields ?? {},
    status: 'open',
    added_at: now.toISOString(),
  };
  board.items[spec.id] = item;
  return item;
}

/**
 * Two items that may run at the same time (neither comes after the other) may not reserve one
 * path: one agent would overwrite the other's work. A new item comes after nothing but its
 * `after` items and what they come after; every other unfinished item is in its parallel set.
 */
function checkParallelPaths(board: WorkBoard, id: string, after: string[], paths: string[]): void {
  if (paths.length === 0) return;
  const before = ancestors(board, after);
  for (const [other, item] of Object.entries(board.items)) {
    if (item.status === 'done' || before.has(other)) continue;
    for (const mine of paths)
      for (const theirs of item.paths)
        if (globsOverlap(mine, theirs))
          throw new BatonError(
            'conflict',
            `item ${id}'s path ${mine} overlaps ${theirs} of item ${other}, which may run at the same time; give ${id} --after ${other} or paths of its own`,
          );
  }
}

function ancestors(board: WorkBoard, start: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length > 0) {
    const id = todo.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(board.items[id]?.after ?? []));
  }
  return seen;
}

export function item(board: WorkBoard, id: string): Item {
  const found = board.items[checkId(id)];
  if (!found) throw new BatonError('not_found', `item ${id} is not on the board; 'baton work show' lists the items`);
  return found;
}

/** The claim that still holds at `now`; an expired one is no claim (anyone may take the item over). */
export function liveClaim(entry: Item, now: Date): Claim | undefined {
  return entry.claim && Date.parse(entry.claim.expires) > now.getTime() ? entry.claim : undefined;
}

/** Why `id` cannot be claimed now, or undefined when it is ready. */
export function notReady(board: WorkBoard, id: string, now: Date): string | undefined {
  const entry = item(board, id);
  if (entry.status === 'done') return `item ${id} is done`;
  if (entry.status === 'blocked') return `item ${id} is blocked${entry.reason ? ` (${entry.reason})` : ''}`;
  const claim = liveClaim(entry, now);
  if (claim) return `item ${id} is held by ${claim.agent} until ${claim.expires}`;
  const waiting = entry.after.filter((dep) => board.items[dep]?.status !== 'done');
  if (waiting.length > 0) return `item ${id} waits for ${waiting.join(', ')}`;
  return undefined;
}

/** Not done, dependencies done, not held: in the order the items were added. */
export function readyIds(board: WorkBoard, now: Date): string[] {
  return Object.keys(board.items).filter((id) => notReady(board, id, now) === undefined);
}

export type ClaimOutcome = { claimed: string; claim: Claim } | { claimed: undefined; why: string };

/**
 * Claims `id` (or the first ready item) for `agent`. An expired claim is taken over: the new claim
 * gets the next fencing token, and the old claimant's heartbeat and done are refused from then on.
 */
export function claimItem(
  board: WorkBoard,
  id: string | undefined,
  agent: string,
  leaseSeconds: number,
  now: Date,
  session?: string,
): ClaimOutcome {
  const target = id ?? readyIds(board, now)[0];
  if (target === undefined) return { claimed: undefined, why: 'no item is ready' };
  const why = notReady(board, target, now);
  if (why) return { claimed: undefined, why };
  board.claims += 1;
  const claim: Claim = {
    agent,
    token: board.claims,
    since: now.toISOString(),
    expires: new Date(now.getTime() + leaseSeconds * 1000).toISOString(),
    lease: leaseSeconds,
    ...(session !== undefined ? { session } : {}),
  };
  item(board, target).claim = claim;
  return { claimed: target, claim };
}

/** The caller's own live claim on `id`, or the refusal naming why it has none (it is fenced). */
export function heldClaim(board: WorkBoard, id: string, agent: string, now: Date, token?: number): Claim {
  const entry = item(board, id);
  const claim = entry.claim;
  if (!claim || claim.agent !== agent || (token !== undefined && claim.token !== token)) {
    const holder = entry.claim && liveClaim(entry, now) ? `it is held by ${entry.claim.agent}` : 'nobody holds it';
    throw new BatonError(
      'conflict',
      `${agent} holds no claim on item ${id} (${holder}); nothing was written; claim it first`,
    );
  }
  if (Date.parse(claim.expires) <= now.getTime())
    throw new BatonError(
      'conflict',
      `${agent}'s lease on item ${id} expired at ${claim.expires}; nothing was written; claim it again (heartbeat before the lease ends)`,
    );
  return claim;
}

export function heartbeat(board: WorkBoard, id: string, agent: string, now: Date, token?: number): Claim {
  const claim = heldClaim(board, id, agent, now, token);
  claim.expires = new Date(now.getTime() + claim.lease * 1000).toISOString();
  return claim;
}

export function finish(board: WorkBoard, id: string, agent: string, now: Date, token?: number): void {
  heldClaim(board, id, agent, now, token);
  const entry = item(board, id);
  delete entry.claim;
  entry.status = 'done';
  entry.done_by = agent;
  entry.done_at = now.toISOString();
}

export function block(board: WorkBoard, id: string, agent: string, reason: string, now: Date, token?: number): void {
  heldClaim(board, id, agent, now, token);
  const entry = item(board, id);
  delete entry.claim;
  entry.status = 'blocked';
  entry.reason = reason;
}

export function release(board: WorkBoard, id: string, agent: string, now: Date, token?: number): void {
  heldClaim(board, id, agent, now, token);
  delete item(board, id).claim;
}

/**
 * Back to open (a blocked item unblocked, a done one to do again). A live claim ends only at its
 * holder's word: reopening another agent's claimed item would lift its reservation under it.
 */
export function reopen(board: WorkBoard, id: string, now: Date, agent?: string): void {
  const entry = item(board, id);
  const claim = liveClaim(entry, now);
  if (claim && claim.agent !== agent)
    throw new BatonError(
      'conflict',
      `item ${id} is held by ${claim.agent} until ${claim.expires}; nothing was written; only its holder can give it back (release), or wait for the lease to end`,
    );
  delete entry.claim;
  delete entry.reason;
  delete entry.done_by;
  delete entry.done_at;
  entry.status = 'open';
}

/**
 * Ends the claims of agents that ended: `agent`'s in `session` (SubagentStop), or every claim
 * made in `session` (SessionEnd, agent undefined). A claim made with a session is ended only by
 * its own session's events: another session's agent of the same name is another agent. Returns
 * the items given back; they are open again, ready for the next claim.
 */
export function releaseEnded(board: WorkBoard, session: string, agent?: string): string[] {
  const released: string[] = [];
  for (const [id, entry] of Object.entries(board.items)) {
    const claim = entry.claim;
    if (!claim) continue;
    const sameSession = claim.session === undefined ? agent !== undefined : claim.session === session;
    if (sameSession && (agent === undefined || claim.agent === agent)) {
      delete entry.claim;
      released.push(id);
    }
  }
  return released;
}
