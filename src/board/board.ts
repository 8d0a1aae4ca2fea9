/**
 * The project's work board over the engine's Doc: every change is one locked read-modify-write of
 * `.claude/state/board.json`, validated by the `work-board` schema and kept in history, on
 * whichever store holds the project's documents. Its `items` and `claims` are sealed to the `work`
 * operation, so a plain `baton update` (or set, or a compat script) cannot forge a claim.
 */
import { join } from 'node:path';
import { BatonError, isBatonError } from '../core/errors.js';
import type { Json, JsonObject } from '../core/json.js';
import { builtinSchema } from '../core/schema/builtin-schemas.js';
import { OPERATION, type Doc } from '../doc/doc.js';
import { openDoc } from '../doc/open.js';
import { work_board as isBoard } from '../generated/validators.js';
import { defaultRoot } from '../project/root.js';
import type { Store } from '../stores/index.js';
import { noteBoardOnStore } from './store-marker.js';
import { barrier, needed, type BarrierState, type WaitMode } from './barrier.js';
import * as model from './model.js';
import { BOARD_KEY } from './model.js';

export { BOARD_KEY } from './model.js';
import type { Claim, NewItem, WorkBoard } from './model.js';

export const BOARD_SCHEMA = 'work-board';
/** The operation the schema's sealed rule names: only the board's own calls change items or claims. */
const OPERATION_NAME = 'work';
/** `work wait --timeout` is bounded like every input: a day. */
export const MAX_WAIT_SECONDS = 86_400;

export interface BoardOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** A Store, or a store URL as `--store` takes (default: the project's store). */
  store?: Store | string;
  /** The board document (default `.claude/state/board.json` in the project). */
  path?: string;
  /** Recorded in history for writes that name no agent (add, reopen). */
  writer?: string;
  now?: () => Date;
  lockTimeoutMs?: number;
  /** How long to wait for a shared store's server (a hook's budget). */
  connectTimeoutMs?: number;
}

export type { BarrierState, PendingItem, WaitMode } from './barrier.js';
export type { Claim, Item, NewItem, WorkBoard } from './model.js';

export class Board {
  readonly doc: Doc;
  private readonly clock: () => Date;
  private readonly root: string;

  constructor(options: BoardOptions = {}) {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    this.clock = options.now ?? (() => new Date());
    this.root = defaultRoot(cwd, env);
    const path = options.path ?? join(this.root, BOARD_KEY);
    this.doc = openDoc(typeof options.store === 'object' ? BOARD_KEY : path, {
      cwd,
      env,
      ...(options.store !== undefined ? { store: options.store } : {}),
      ...(options.writer !== undefined ? { writer: options.writer } : {}),
      ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      howToCreate: "'baton work add'",
    });
  }

  /** The committed board, or undefined when nothing was ever added. */
  async read(): Promise<WorkBoard | undefined> {
    const doc = await this.doc.read();
    this.seen(doc !== undefined);
    return doc === undefined ? undefined : typed(doc, this.doc.key);
  }

  /** On a shared store, this machine's record of whether the board is there (store-marker.ts). */
  private seen(present: boolean): void {
    // The file store's board is a file here, an in-process store's lives and dies with the process.
    const kind = this.doc.store.kind;
    if (kind !== 'file' && kind !== 'memory') noteBoardOnStore(this.root, present);
  }

  /** The board, or the error saying how to start one. */
  async current(): Promise<WorkBoard> {
    const board = await this.read();
    if (!board) throw missing(this.doc.key);
    return board;
  }

  async add(spec: NewItem, writer?: string): Promise<void> {
    const now = this.clock();
    if ((await this.doc.store.read(this.doc.key)).state === 'missing')
      try {
        await this.doc.init({}, { schema: BOARD_SCHEMA, [OPERATION]: OPERATION_NAME, ...who(writer) });
      } catch (error) {
        // Another agent made the board first: the add goes onto theirs.
        if (!isBatonError(error, 'exists')) throw error;
      }
    this.seen(true);
    await this.change((board) => void model.addItem(board, spec, now), writer);
  }

  async ready(): Promise<string[]> {
    const board = await this.read();
    return board ? model.readyIds(board, this.clock()) : [];
  }

  /** Exactly one of any number of racing claimants gets `claimed`; the others the reason they lost. */
  async claim(
    id: string | undefined,
    agent: string,
    leaseSeconds = model.DEFAULT_LEASE_SECONDS,
    /** The host session the agent runs in: its SessionEnd ends the claim. */
    session?: string,
  ): Promise<model.ClaimOutcome> {
    checkAgent(agent);
    if (session !== undefined) checkAgent(session, 'BATON_SESSION');
    if (id !== undefined) model.checkId(id);
    model.checkLease(leaseSeconds);
    // A committed board on which the claim cannot succeed is a lost race already: answering from
    // the lock-free read spares the lock's queue every claimant that comes after the winner. A
    // claim is only ever won under the lock, below.
    const seen = await this.read();
    const now = this.clock();
    const why = !seen
      ? undefined
      : id !== undefined
        ? model.notReady(seen, id, now)
        : model.readyIds(seen, now).length === 0
          ? 'no item is ready'
          : undefined;
    if (why) return { claimed: undefined, why };
    let outcome: model.ClaimOutcome = { claimed: undefined, why: 'no item is ready' };
    await this.change((board) => {
      // The store may run this more than once (a no-op decided before locking): the last run counts.
      outcome = model.claimItem(board, id, agent, leaseSeconds, this.clock(), session);
    }, agent);
    return outcome;
  }

  async heartbeat(id: string, agent: string, token?: number): Promise<Claim> {
    checkAgent(agent);
    let claim: Claim | undefined;
    await this.change((board) => {
      claim = model.heartbeat(board, id, agent, this.clock(), token);
    }, agent);
    return claim as Claim;
  }

  async done(id: string, agent: string, token?: number): Promise<void> {
    checkAgent(agent);
    await this.change((board) => model.finish(board, id, agent, this.clock(), token), agent);
  }

  async block(id: string, agent: string, reason: string, token?: number): Promise<void> {
    checkAgent(agent);
    await this.change((board) => model.block(board, id, agent, reason, this.clock(), token), agent);
  }

  async release(id: string, agent: string, token?: number): Promise<void> {
    checkAgent(agent);
    await this.change((board) => model.release(board, id, agent, this.clock(), token), agent);
  }

  /** `writer` is the caller: a live claim is reopened only by its holder. */
  async reopen(id: string, writer?: string): Promise<void> {
    await this.change((board) => model.reopen(board, id, this.clock(), writer), writer);
  }

  /**
   * Ends the claims of agents that ended (model.releaseEnded): `agent`'s in `session`, or the whole
   * session's. `why` is the history's writer, so the board's history says why each item came back.
   * Returns the items given back; none when there is no board.
   */
  async releaseEnded(why: string, session: string, agent?: string): Promise<string[]> {
    let released: string[] = [];
    if ((await this.doc.store.read(this.doc.key)).state === 'missing') return released;
    const seen = await this.read();
    // Nothing to give back is no commit (the common SubagentStop): decided on the lock-free read,
    // then again under the lock.
    if (seen && model.releaseEnded(structuredClone(seen), session, agent).length === 0) return released;
    await this.change((board) => {
      released = model.releaseEnded(board, session, agent);
    }, why);
    return released;
  }

  /** Where a barrier over `ids` stands now. */
  async barrier(ids: string[], mode: WaitMode): Promise<BarrierState> {
    return barrier(await this.read(), ids, needed(ids, mode), this.clock());
  }

  /**
   * Waits until the barrier is met or `timeoutSeconds` pass, woken by the store's watch (a file
   * event, or PostgreSQL's LISTEN/NOTIFY) after each commit, never by polling the board. Resolves
   * with the state either way; `met` says which.
   */
  async wait(ids: string[], mode: WaitMode, timeoutSeconds: number): Promise<BarrierState> {
    const need = needed(ids, mode);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > MAX_WAIT_SECONDS)
      throw new BatonError('usage', `--timeout must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}`);
    const board = await this.current();
    const unknown = ids.filter((id) => !board.items[id]);
    if (unknown.length > 0)
      throw new BatonError('not_found', `not on the board: ${unknown.join(', ')}; 'baton work show' lists the items`);
    return new Promise<BarrierState>((resolve, reject) => {
      let settled = false;
      const settle = (state: BarrierState | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unwatch();
        if (state instanceof Error) reject(state);
        else resolve(state);
      };
      const check = (final: boolean) =>
        this.read().then(
          (now) => {
            const state = barrier(now, ids, need, this.clock());
            if (state.met || final) settle(state);
          },
          (error: unknown) => settle(error instanceof Error ? error : new Error(String(error))),
        );
      // Watch first, then read: a commit between the two still wakes us.
      const unwatch = this.doc.store.watch(this.doc.key, () => void check(false));
      const timer = setTimeout(() => void check(true), timeoutSeconds * 1000);
      void check(false);
    });
  }

  private async change(edit: (board: WorkBoard) => void, writer?: string): Promise<void> {
    try {
      await this.doc.update(
        (doc) => {
          const board = typed(doc, this.doc.key);
          edit(board);
          return board as unknown as JsonObject;
        },
        {},
        { [OPERATION]: OPERATION_NAME, ...who(writer) },
      );
    } catch (error) {
      if (isBatonError(error, 'not_found') && error.message.startsWith(`${this.doc.key} `)) throw missing(this.doc.key);
      throw error;
    }
  }
}

function who(writer: string | undefined): { writer?: string } {
  return writer === undefined ? {} : { writer };
}

function checkAgent(agent: string, what = '--as'): void {
  if (agent.length === 0 || agent.length > 200 || /[\0-\x1f]/.test(agent))
    throw new BatonError('usage', `${what} must name the agent: 1 to 200 characters, no control characters`);
}

/** A board document read elsewhere (a resident server keeps it), checked as a read checks it. */
/** The board a document is, as read() makes it (a parser of FileStore.readKept); throws for one that is not. */
export function boardFromDoc(doc: Json): WorkBoard {
  return typed(doc, BOARD_KEY);
}

export function boardOf(doc: Json, key: string): WorkBoard {
  return typed(doc, key);
}

function typed(doc: Json, key: string): WorkBoard {
  if (isBoard(doc)) return doc;
  const [issue] = builtinSchema(BOARD_SCHEMA)?.validate(doc) ?? [];
  throw new BatonError(
    'invalid',
    `${key} is not a work board (${issue?.path}: ${issue?.message}); restore it with baton revert, or clear it and add the items again`,
  );
}

function missing(key: string): BatonError {
  return new BatonError('not_found', `there is no board at ${key} yet; add an item first: baton work add ID --title T`);
}
