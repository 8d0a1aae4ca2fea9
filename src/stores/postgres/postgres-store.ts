import { createHash } from 'node:crypto';
import type { Client, Pool, PoolClient, QueryResult } from 'pg';
import { BatonError } from '../../core/errors.js';
import type { Json } from '../../core/json.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../../core/runtime-options.js';
import type { DocumentDump, PortableStore } from '../portable.js';
import { replay } from '../replay.js';
import {
  checkNextRevision,
  type Change,
  type Committed,
  type Current,
  type Decision,
  type DocMeta,
  type HistoryEntry,
  type Listing,
  type ReadResult,
  type Store,
} from '../store.js';
import { fromPgError, isConnectionLoss, isTransientConnect, target } from './postgres-errors.js';
import { defaultProjectId } from './project.js';
import { CHANNEL, checkSchema, migrateSchema } from './schema.js';

export { defaultProjectId, normaliseRemote } from './project.js';
export { SCHEMA_VERSION } from './schema.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (any libpq-style URL node-postgres accepts). */
  url: string;
  /** The project root; the default project id is derived from it. */
  root: string;
  /** Scopes every document; default: the git remote's URL, else the root's real path. */
  project?: string;
  /** Longest wait for another writer's row lock, and for a free pooled connection (default 30 s). */
  lockTimeoutMs?: number;
  /** How long a refused or restarting server is retried before giving up (default 5 s). */
  connectRetryMs?: number;
  /**
   * A hard budget for reaching the server: each connection attempt and each query gives up after
   * this long, and a refused connection is not retried. Hooks set it (shared-documents.ts) so a
   * server that is down or does not answer costs at most this, never the host's hook timeout.
   */
  connectTimeoutMs?: number;
  /** Connections this process may open (default 10). */
  poolSize?: number;
}

export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pg = await import('pg');
  return new PostgresStore(options, (pg.default ?? pg) as typeof import('pg'));
}

/** Creates or upgrades the baton tables (`baton store migrate`). */
export async function migratePostgres(url: string): Promise<{ from: number; to: number }> {
  const store = await createPostgresStore({ url, root: '.', project: '' });
  try {
    return await store.withClient((client) => migrateSchema(client, url), { check: false });
  } finally {
    await store.close();
  }
}

const TRANSACTION_ATTEMPTS = 3;

/**
 * The shared store: documents and history in PostgreSQL, keyed by (project, key). An update is one
 * transaction: the document's row locked with SELECT ... FOR UPDATE, the engine's decision, the
 * history row and the document written together, and a notification sent on commit. A client that
 * dies mid-update leaves nothing (the server rolls the transaction back) and no lock behind.
 */
export class PostgresStore implements Store, PortableStore {
  readonly kind = 'postgres';
  readonly project: string;
  readonly url: string;
  private readonly lockTimeoutMs: number;
  private readonly connectRetryMs: number;
  private readonly poolSize: number;
  private readonly budget?: number;
  private readonly pool: Pool;
  private checked = false;
  /** The last revision this process committed or read under the lock, per key (transactKnown). */
  private readonly known = new Map<string, Known>();
  /** Keys another process wrote under this process's guess, until when they skip guessing. */
  private readonly raced = new Map<string, number>();
  /** Transactions of this process under way, per key: while one is, the others take the row lock. */
  private readonly busy = new Map<string, number>();
  private watching?: Watching;
  /** The session revisions() runs on: `ready` until connected, `busy` counting checks under way. */
  private checker?: { client: Held; ready?: Promise<void>; busy: number };
  private closed = false;

  constructor(
    options: PostgresStoreOptions,
    private readonly pg: typeof import('pg'),
  ) {
    this.url = options.url;
    this.project = options.project ?? defaultProjectId(options.root);
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const budget = options.connectTimeoutMs;
    this.connectRetryMs = budget !== undefined ? 0 : (options.connectRetryMs ?? 5_000);
    this.poolSize = options.poolSize ?? 10;
    this.budget = budget;
    this.pool = new pg.Pool({
      Client: guardedClient(pg),
      ...this.sessionConfig('baton'),
      max: this.poolSize,
      // Idle pooled connections do not hold the process open: a command ends when its work does,
      // not when the pool's idle timer runs out (10 s), and no face has to remember to close.
      allowExitOnIdle: true,
    });
    // An idle pooled connection cut by a server restart must not crash the process: the next use
    // connects afresh.
    this.pool.on('error', () => undefined);
  }

  /** What every session of this store is opened with. */
  private sessionConfig(application: string): import('pg').ClientConfig {
    return {
      connectionString: this.url,
      connectionTimeoutMillis: this.budget ?? this.lockTimeoutMs,
      ...(this.budget !== undefined ? { query_timeout: this.budget } : {}),
      application_name: application,
      // Every lock wait ends with lock_not_available after this long, reported as lock_timeout.
      options: `-c lock_timeout=${this.lockTimeoutMs}`,
    };
  }

  async read(key: string): Promise<ReadResult> {
    const row = await this.withClient(
      async (client) =>
        (
          await client.query<{ text: string; meta: string }>(
            `SELECT text, meta FROM baton_documents WHERE project = $1 AND key = $2`,
            [this.project, key],
          )
        ).rows[0],
    );
    if (!row) return { state: 'missing' };
    return { ...parseText(row.text), meta: parseMeta(row.meta, key) };
  }

  async transact<T>(key: string, fn: (current: Current) => Decision<T> | Promise<Decision<T>>): Promise<T> {
    const known = this.known.get(key);
    // One transaction of this process per key at a time takes the guess: others take the row
    // lock, so writers of one process do not make each other's guesses wrong.
    const racedUntil = this.raced.get(key);
    if (racedUntil !== undefined && racedUntil <= Date.now()) this.raced.delete(key);
    const fast = known !== undefined && !this.busy.has(key) && !this.raced.has(key);
    this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    try {
      if (fast) {
        const landed = await this.transactKnown(key, known, fn);
        if (landed) return landed.result;
      }
      return await this.transactLocked(key, fn);
    } finally {
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left === 0) this.busy.delete(key);
      else this.busy.set(key, left);
    }
  }

  /**
   * One round trip in the steady state: deciding on the revision this process last committed or
   * read, then writing only if the row is still at that revision (compare-and-set under the row
   * lock the UPDATE takes). Revisions only grow (history's key holds every one), so the revision
   * names the text exactly. Undefined when the guess was wrong or the decision commits nothing
   * (a no-op must be decided on the committed state, not on this process's memory): the caller
   * then decides again under the row lock, as `Store.transact` allows.
   */
  private async transactKnown<T>(
    key: string,
    known: Known,
    fn: (current: Current) => Decision<T> | Promise<Decision<T>>,
  ): Promise<{ result: T } | undefined> {
    const current: Current = { ...parseText(known.text), rev: known.rev, meta: parseMeta(known.meta, key) };
    let decision: Decision<T>;
    try {
      decision = await fn(current);
    } catch {
      // Refused on what may be an old revision: the refusal is decided again on the committed one.
      return undefined;
    }
    const change = decision.commit;
    if (!change || change.entry.rev !== current.rev + 1) return undefined;
    const client = await this.connect();
    const backend = (client as unknown as { processID: number }).processID;
    let results: QueryResult[];
    try {
      results = (await client.query(
        `BEGIN; ${this.writeSql(client, key, change)}; COMMIT; ${this.announceSql(client, key)}`,
      )) as unknown as QueryResult[];
    } catch (error) {
      // Not landed after a lost connection: nothing was written, and the locked path decides again.
      if (!(await this.settle(client, key, change, backend, error))) return undefined;
      return this.landedAfter(key, change, known.meta, decision);
    }
    client.release();
    if (results[1]?.rowCount !== 1) {
      // Another writer came first: nothing was written (the transaction committed no row). While
      // other processes write this key, guesses would mostly be wrong, each costing a round trip
      // and a wait for their row lock: the key takes the locked path for a while.
      this.known.delete(key);
      if (this.raced.size >= KNOWN_KEYS_LIMIT) this.raced.delete(this.raced.keys().next().value as string);
      this.raced.set(key, Date.now() + RACED_MS);
      return undefined;
    }
    return this.landedAfter(key, change, known.meta, decision);
  }

  /** The classic path: the row read and locked (SELECT ... FOR UPDATE), decided, written, two round trips. */
  private async transactLocked<T>(
    key: string,
    fn: (current: Current) => Decision<T> | Promise<Decision<T>>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      // The server process of this session, to settle a commit whose answer is lost.
      const backend = (client as unknown as { processID: number }).processID;
      let committing = false;
      let decision: Decision<T> | undefined;
      let row: LockedRow | undefined;
      try {
        // Round trips are most of an update's cost, so the statements that need no answer in
        // between go together as one simple query, their values as escaped literals.
        const lit = (value: string) => client.escapeLiteral(value);
        const where = `project = ${lit(this.project)} AND key = ${lit(key)}`;
        const opened = (await client.query(
          `BEGIN; SELECT rev, text, meta FROM baton_documents WHERE ${where} FOR UPDATE`,
        )) as unknown as QueryResult<LockedRow>[];
        row = opened[1]?.rows[0];
        if (!row) {
          // No row, so no document: decide before creating one, so a no-op (`update --if-exists`)
          // leaves nothing behind. Only a commit inserts the row, and then decides again under
          // its lock (a concurrent creator makes this insert wait, then do nothing).
          const missing = await fn({ state: 'missing', rev: 0, meta: {} });
          if (!missing.commit) {
            await client.query('ROLLBACK');
            client.release();
            return missing.result;
          }
          await client.query(
            `INSERT INTO baton_documents (project, key, rev, text, meta) VALUES ($1, $2, 0, '', '{}')
             ON CONFLICT (project, key) DO NOTHING`,
            [this.project, key],
          );
          row = await lockRow(client, this.project, key);
        }
        const current: Current = { ...parseText(row?.text ?? ''), rev: row?.rev ?? 0, meta: parseMeta(row?.meta, key) };
        decision = await fn(current);
        const change = decision.commit;
        if (!change) {
          await client.query('ROLLBACK');
          client.release();
          this.remember(key, row);
          return decision.result;
        }
        checkNextRevision(change, current.rev, key);
        // COMMIT travels with the write, and the notification with the COMMIT: from here on, a
        // lost answer may mean a landed commit.
        committing = true;
        const [written] = (await client.query(
          `${this.writeSql(client, key, change)}; COMMIT; ${this.announceSql(client, key)}`,
        )) as unknown as QueryResult[];
        // Under the row lock the revision cannot have moved; if it did, the COMMIT above
        // committed nothing, and the writer is told so.
        if (written?.rowCount !== 1)
          throw new BatonError('lock_lost', `${key} changed under its row lock; nothing was written; retry`);
        client.release();
      } catch (error) {
        if (committing && decision?.commit && !(error instanceof BatonError)) {
          if (!(await this.settle(client, key, decision.commit, backend, error)))
            throw new BatonError(
              'io',
              `lost the connection to PostgreSQL at ${target(this.url)} while committing ${key}; the commit did not land (revision ${decision.commit.entry.rev} is not in history); retry`,
              { cause: error },
            );
          return this.landedAfter(key, decision.commit, row?.meta ?? '{}', decision).result;
        }
        const lost = isConnectionLoss(error);
        if (lost) client.release(true);
        else await rollback(client);
        if (lost && attempt < TRANSACTION_ATTEMPTS) {
          // Nothing was committed (the server rolls back a transaction whose session ends), so
          // deciding again on a new connection is safe.
          continue;
        }
        throw error instanceof BatonError ? error : fromPgError(error, this.url, key);
      }
      return this.landedAfter(key, decision.commit, row?.meta ?? '{}', decision).result;
    }
  }

  /**
   * The write and its history row as one statement: the row is updated only at the revision the
   * change was decided on (the statement's second result counts the history rows written: 1, or
   * 0 when the revision moved and nothing was written).
   */
  private writeSql(client: PoolClient, key: string, change: Change): string {
    const lit = (value: string) => client.escapeLiteral(value);
    const entry = change.entry;
    const meta = change.meta ? lit(JSON.stringify(change.meta)) : 'meta';
    return `WITH d AS (
             UPDATE baton_documents SET rev = ${entry.rev}, text = ${lit(change.text)}, meta = ${meta}
             WHERE project = ${lit(this.project)} AND key = ${lit(key)} AND rev = ${entry.rev - 1}
             RETURNING 1
           )
           INSERT INTO baton_history (project, key, rev, snapshot, entry)
           SELECT ${lit(this.project)}, ${lit(key)}, ${entry.rev}, ${entry.snapshot !== undefined}, ${lit(JSON.stringify(entry))} FROM d`;
  }

  /**
   * Tells listeners on other connections that `key` moved. Not inside the write's transaction: a
   * NOTIFY there takes a database-wide lock held through that commit's WAL flush, so concurrent
   * commits could no longer share a flush (it cost 3x in throughput, docs/benchmarks.md). Sent
   * after it, in a transaction of its own that waits for no flush (the notification is a wake-up,
   * not data: the document is already durable), the lock is held for microseconds. It travels in
   * the write's round trip, after its COMMIT: the server runs it only once that COMMIT succeeded.
   */
  private announceSql(client: PoolClient, key: string): string {
    return `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_notify('${CHANNEL}', ${client.escapeLiteral(this.channelKey(key))}); COMMIT`;
  }

  /**
   * After a failed round trip that carried a COMMIT: whether the change landed is read back, never
   * guessed. The notification after the COMMIT may have failed alone (then the document is
   * committed and watchers see it on their next poll); a lost connection is settled by ending the
   * old session first. False when it did not land after a lost connection (nothing was written);
   * any other failure that kept the change out is thrown.
   */
  private async settle(
    client: PoolClient,
    key: string,
    change: Change,
    backend: number,
    error: unknown,
  ): Promise<boolean> {
    const lost = isConnectionLoss(error);
    if (lost) client.release(true);
    else await rollback(client);
    if (await this.landed(key, change.entry, lost ? backend : undefined, error)) return true;
    this.known.delete(key);
    if (lost) return false;
    throw fromPgError(error, this.url, key);
  }

  /** After a commit: remembered for the next write, reported to this process's watchers, then `committed`. */
  private landedAfter<T>(key: string, change: Change | undefined, meta: string, decision: Decision<T>): { result: T } {
    if (change) {
      this.remember(key, {
        rev: change.entry.rev,
        text: change.text,
        meta: change.meta ? JSON.stringify(change.meta) : meta,
      });
      decision.committed?.();
      this.watching?.committed(key, change.entry.rev);
    } else decision.committed?.();
    return { result: decision.result };
  }

  /** Keeps the committed text of small documents that have one, for `transactKnown`. */
  private remember(key: string, row: LockedRow | undefined): void {
    this.known.delete(key);
    if (!row || row.text === '' || row.text.length > KNOWN_TEXT_LIMIT) return;
    if (this.known.size >= KNOWN_KEYS_LIMIT) this.known.delete(this.known.keys().next().value as string);
    this.known.set(key, { rev: row.rev, text: row.text, meta: row.meta });
  }

  async list(): Promise<Listing[]> {
    // The time is the last revision's: the history row the document's revision names.
    const rows = await this.withClient(
      async (client) =>
        (
          await client.query<{ key: string; time: string | null }>(
            `SELECT d.key, h.entry::json->>'time' AS time
             FROM baton_documents d
             LEFT JOIN baton_history h ON h.project = d.project AND h.key = d.key AND h.rev = d.rev
             WHERE d.project = $1 AND d.text <> '' ORDER BY d.key COLLATE "C"`,
            [this.project],
          )
        ).rows,
    );
    return rows.map((row) => ({ key: row.key, time: row.time ?? new Date(0).toISOString() }));
  }

  async history(key: string, options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    const rows = await this.withClient(
      async (client) =>
        (
          await client.query<{ entry: string }>(
            `SELECT entry FROM baton_history WHERE project = $1 AND key = $2 ORDER BY rev DESC LIMIT $3`,
            [this.project, key, options.limit ?? 20],
          )
        ).rows,
    );
    return rows.map((row) => JSON.parse(row.entry) as HistoryEntry);
  }

  async revision(key: string, rev: number): Promise<{ entry: HistoryEntry; doc: Json | null }> {
    // From the newest full copy at or before `rev`, so replay applies at most a segment's patches.
    const rows = await this.withClient(
      async (client) =>
        (
          await client.query<{ entry: string }>(
            `SELECT entry FROM baton_history
             WHERE project = $1 AND key = $2 AND rev <= $3 AND rev >= COALESCE(
               (SELECT max(rev) FROM baton_history WHERE project = $1 AND key = $2 AND rev <= $3 AND snapshot), 1)
             ORDER BY rev`,
            [this.project, key, rev],
          )
        ).rows,
    );
    return replay(
      rows.map((row) => JSON.parse(row.entry) as HistoryEntry),
      rev,
      key,
    );
  }

  /**
   * Commits made in this process are reported as they land; those of other processes and machines
   * when their notification arrives (LISTEN), and by a slow poll of the watched keys' revisions for
   * any notification that never comes (a writer that died between its commit and its notification,
   * a listening session the server cut).
   */
  watch(key: string, listener: () => void): () => void {
    if (!this.watching) {
      const watching = new Watching(
        async (keys) => new Map([...(await this.revisions(keys))].map(([key, { rev }]) => [key, rev])),
        (key) => this.channelKey(key),
      );
      this.watching = watching;
      this.listen(watching);
    }
    return this.watching.add(key, listener, () => {
      if (this.watching?.idle()) {
        this.watching.stop();
        this.watching = undefined;
      }
    });
  }

  /** A session of its own that LISTENs for as long as `watching` is this store's. */
  private listen(watching: Watching): void {
    const client: Client = new this.pg.Client({ connectionString: this.url, application_name: 'baton watch' });
    client.on('error', () => undefined);
    client.on('notification', (message) => watching.notified(message.payload ?? ''));
    // A session the server ended is opened again on the next poll, while anyone still watches.
    client.on('end', () => watching.listenerLost());
    watching.listener = client;
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => watching.poll())
      .catch(() => watching.listenerLost());
    watching.relisten = () => {
      if (this.watching === watching) this.listen(watching);
    };
  }

  /** The notification payload for a key: fixed length, whatever the key's (payloads are capped at 8000 bytes). */
  private channelKey(key: string): string {
    return createHash('sha256').update(`${this.project}\0${key}`).digest('base64url');
  }

  /**
   * The committed revision of each key that has a row. After the first call (through the pool,
   * which checks the schema), on a session of its own: the query is written to the socket within
   * this call, before the caller goes on, where a pool checkout hands its connection over on a
   * later tick, after whatever the caller runs meanwhile (a resident server decides while the
   * query travels, serve/shared-state.ts); and it costs no checkout. Any failure ends that session:
   * the next call opens another.
   */
  async revisions(keys: string[]): Promise<Map<string, Committed>> {
    return this.checkRevisions(keys, false);
  }

  private async checkRevisions(keys: string[], again: boolean): Promise<Map<string, Committed>> {
    if (!this.checked)
      return this.withClient(async (client) => revisionMap(await client.query(revisionsQuery(this.project, keys))));
    if (this.closed) throw new BatonError('internal', 'this PostgreSQL store was closed; open a new one');
    let checker = this.checker;
    if (!checker) {
      const client = new (guardedClient(this.pg))(this.sessionConfig('baton')) as Held;
      checker = { client, ready: client.connect().then(() => undefined), busy: 0 };
      this.checker = checker;
    }
    const { client } = checker;
    // Held open while a check is under way, as a pooled connection is (allowExitOnIdle), and no longer.
    if (checker.busy++ === 0) client.ref();
    try {
      if (checker.ready) {
        await checker.ready;
        checker.ready = undefined;
      }
      // A named statement: parsed and planned once per session, each check after that only bound
      // and run, which halves the backend's work per check (about 80 -> 35 us of CPU here). The
      // check runs on every decision of a resident server, and on one machine the backend shares
      // its cores. A schema change under it is planned again by the server, or fails it (below).
      return revisionMap(await client.query({ ...revisionsQuery(this.project, keys), name: 'baton_revisions' }));
    } catch (error) {
      if (this.checker === checker) this.checker = undefined;
      client.end().catch(() => undefined);
      // A column of its result changed type under the prepared statement (a migration, an
      // administrator): 'cached plan must not change result type' (0A000), with the store up. Asked
      // once more on a new session, which prepares it again: failed, a resident server would judge
      // this decision by the machine's own files, which may be stale (test/serve/kept-shared).
      if (!again && (error as { code?: unknown }).code === '0A000') return this.checkRevisions(keys, true);
      throw fromPgError(error, this.url);
    } finally {
      if (--checker.busy === 0) client.unref();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watching?.stop();
    this.watching = undefined;
    this.checker?.client.end().catch(() => undefined);
    this.checker = undefined;
    await this.pool.end();
  }

  /** Every key of this project that has a row (deleted documents included: their history stays). */
  async keys(): Promise<string[]> {
    const rows = await this.withClient(
      async (client) =>
        (
          await client.query<{ key: string }>(`SELECT key FROM baton_documents WHERE project = $1 ORDER BY key`, [
            this.project,
          ])
        ).rows,
    );
    return rows.map((row) => row.key);
  }

  async dump(key: string): Promise<DocumentDump> {
    return this.withClient(async (client) => {
      // One snapshot for the document and its history, so they agree however writers go on.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const doc = await client.query<{ text: string; meta: string }>(
          `SELECT text, meta FROM baton_documents WHERE project = $1 AND key = $2`,
          [this.project, key],
        );
        const entries = await client.query<{ entry: string }>(
          `SELECT entry FROM baton_history WHERE project = $1 AND key = $2 ORDER BY rev`,
          [this.project, key],
        );
        return {
          key,
          text: doc.rows[0]?.text ?? '',
          meta: parseMeta(doc.rows[0]?.meta, key),
          entries: entries.rows.map((row) => JSON.parse(row.entry) as HistoryEntry),
        };
      } finally {
        await client.query('ROLLBACK');
      }
    });
  }

  /** Writes a document with its whole history in one transaction; refuses a key that has revisions. */
  async load(dump: DocumentDump): Promise<void> {
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const last = dump.entries.at(-1)?.rev ?? 0;
        const inserted = await client.query(
          `INSERT INTO baton_documents (project, key, rev, text, meta) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (project, key) DO UPDATE SET rev = EXCLUDED.rev, text = EXCLUDED.text, meta = EXCLUDED.meta
           WHERE baton_documents.rev = 0`,
          [this.project, dump.key, last, dump.text, JSON.stringify(dump.meta)],
        );
        if (inserted.rowCount !== 1)
          throw new BatonError(
            'exists',
            `${dump.key} already has history in project ${this.project}; nothing was imported; clear it with another project id or import into an empty store`,
          );
        for (const entry of dump.entries)
          await client.query(
            `INSERT INTO baton_history (project, key, rev, snapshot, entry) VALUES ($1, $2, $3, $4, $5)`,
            [this.project, dump.key, entry.rev, entry.snapshot !== undefined, JSON.stringify(entry)],
          );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** Runs `work` on a pooled connection (schema checked once per store), mapping failures to BatonErrors. */
  async withClient<T>(work: (client: PoolClient) => Promise<T>, options: { check?: boolean } = {}): Promise<T> {
    const client = await this.connect(options.check ?? true);
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      client.release(isConnectionLoss(error) ? true : undefined);
      throw fromPgError(error, this.url);
    }
  }

  private async connect(check = true): Promise<PoolClient> {
    if (this.closed) throw new BatonError('internal', 'this PostgreSQL store was closed; open a new one');
    const deadline = Date.now() + this.connectRetryMs;
    let client: PoolClient;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      try {
        client = await this.pool.connect();
        // A pooled session the server ended (a restart) may still be handed out once: drop it.
        const state = client as unknown as { _queryable?: boolean; _ending?: boolean };
        if (state._queryable === false || state._ending === true) {
          client.release(true);
          continue;
        }
        break;
      } catch (error) {
        if (
          /timeout exceeded when trying to connect/i.test(String((error as Error).message)) &&
          this.pool.totalCount >= this.poolSize
        )
          throw new BatonError(
            'lock_timeout',
            `all ${this.poolSize} PostgreSQL connections of this process stayed busy for ${this.lockTimeoutMs} ms; run fewer writers at once or raise the pool size`,
            { cause: error },
          );
        // Only connecting is retried: nothing has been sent, so nothing can be applied twice.
        if (!isTransientConnect(error) || Date.now() + delay > deadline) throw fromPgError(error, this.url);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    if (check && !this.checked) {
      try {
        await checkSchema(client, this.url);
        this.checked = true;
      } catch (error) {
        client.release(isConnectionLoss(error) ? true : undefined);
        throw fromPgError(error, this.url);
      }
    }
    return client;
  }

  /**
   * After a COMMIT whose answer was lost: ends the old session if it still runs (so its
   * transaction is settled one way or the other), then looks for the exact entry in history.
   * Without a backend (the session is alive and its transaction over) it only looks.
   */
  private async landed(
    key: string,
    entry: HistoryEntry,
    backend: number | undefined,
    cause: unknown,
  ): Promise<boolean> {
    try {
      return await this.withClient(async (client) => {
        if (backend !== undefined)
          await client.query(`SELECT pg_terminate_backend($1) FROM pg_stat_activity WHERE pid = $1`, [backend]);
        for (; backend !== undefined;) {
          const alive = await client.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [backend]);
          if (alive.rowCount === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const found = await client.query<{ entry: string }>(
          `SELECT entry FROM baton_history WHERE project = $1 AND key = $2 AND rev = $3`,
          [this.project, key, entry.rev],
        );
        return found.rows[0]?.entry === JSON.stringify(entry);
      });
    } catch {
      throw new BatonError(
        'io',
        `lost the connection to PostgreSQL at ${target(this.url)} while committing ${key}, and cannot reach it to learn whether revision ${entry.rev} landed; check 'baton history ${key}' before retrying`,
        { cause },
      );
    }
  }
}

/**
 * Clients that never crash the process with an unhandled 'error' event: a session cut by a server
 * restart emits one whenever it happens (idle, connecting, or between two queries of a
 * transaction), and the query that next uses the client fails with it and is handled there.
 */
function guardedClient(pg: typeof import('pg')): typeof import('pg').Client {
  return class extends pg.Client {
    constructor(config?: string | import('pg').ClientConfig) {
      super(config);
      this.on('error', () => undefined);
    }
  };
}

/**
 * How often a watching process asks for the watched keys' revisions when no notification came:
 * the bound on how late a commit whose notification was lost is seen.
 */
const WATCH_POLL_MS = 2000;

/** The watched keys of one store, their last seen revisions, and the reads that compare them. */
class Watching {
  private readonly keys = new Map<string, { rev?: number; channel: string; listeners: Set<() => void> }>();
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private again = false;
  listener?: Client;
  relisten?: () => void;

  constructor(
    private readonly revisions: (keys: string[]) => Promise<Map<string, number>>,
    private readonly channelKey: (key: string) => string,
  ) {}

  add(key: string, listener: () => void, onEmpty: () => void): () => void {
    const watched = this.keys.get(key) ?? { channel: this.channelKey(key), listeners: new Set<() => void>() };
    watched.listeners.add(listener);
    this.keys.set(key, watched);
    this.timer ??= setInterval(() => {
      if (!this.listener) this.relisten?.();
      void this.poll();
    }, WATCH_POLL_MS);
    void this.poll();
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size === 0 && this.keys.get(key) === watched) this.keys.delete(key);
      if (this.keys.size === 0) onEmpty();
    };
  }

  idle(): boolean {
    return this.keys.size === 0;
  }

  /** A commit of this process: reported now, and not again by the next poll. */
  committed(key: string, rev: number): void {
    const watched = this.keys.get(key);
    if (!watched) return;
    watched.rev = Math.max(watched.rev ?? 0, rev);
    for (const fn of watched.listeners) fn();
  }

  notified(channel: string): void {
    for (const watched of this.keys.values()) if (watched.channel === channel) return void this.poll();
  }

  listenerLost(): void {
    this.listener = undefined;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    this.relisten = undefined;
    listener?.end().catch(() => undefined);
  }

  /** Reads the revisions once more when asked while a read is under way: it may predate the commit. */
  poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.again = false;
        if (this.keys.size === 0) break;
        try {
          const revs = await this.revisions([...this.keys.keys()]);
          for (const [key, watched] of this.keys) {
            const rev = revs.get(key) ?? 0;
            const first = watched.rev === undefined;
            const moved = !first && rev > (watched.rev as number);
            if (first || moved) watched.rev = rev;
            if (moved) for (const fn of watched.listeners) fn();
          }
        } catch {
          // The server is unreachable for now: the next poll tries again, and reads report the error.
        }
      } while (this.again);
      this.polling = undefined;
    })();
    return this.polling;
  }
}

/** Documents larger than this are not kept in memory between writes: they take the locked path. */
const KNOWN_TEXT_LIMIT = 256 * 1024;
const KNOWN_KEYS_LIMIT = 256;
/** How long a key another process wrote under a guess takes the locked path. */
const RACED_MS = 2000;

type Known = LockedRow;

interface LockedRow {
  rev: number;
  text: string;
  meta: string;
}

/** A session whose socket can be let go of while idle (what pg-pool does with allowExitOnIdle; untyped in @types/pg). */
type Held = Client & { ref(): void; unref(): void };

/**
 * Each key's revision and its row's identity: the table's OID (a table dropped and made again is
 * another) and the transaction that wrote the row version (a restore or a rewrite writes new ones),
 * read with the revision, so the check stays one index lookup and one round trip.
 */
const revisionsQuery = (project: string, keys: string[]): import('pg').QueryArrayConfig => ({
  text: `SELECT key, rev, tableoid::text || ':' || xmin::text FROM baton_documents WHERE project = $1 AND key = ANY($2)`,
  values: [project, keys],
  rowMode: 'array',
});

const revisionMap = (result: import('pg').QueryArrayResult): Map<string, Committed> =>
  new Map(result.rows.map((row) => [row[0] as string, { rev: row[1] as number, row: row[2] as string }]));

async function lockRow(client: PoolClient, project: string, key: string): Promise<LockedRow | undefined> {
  const result = await client.query<LockedRow>(
    `SELECT rev, text, meta FROM baton_documents WHERE project = $1 AND key = $2 FOR UPDATE`,
    [project, key],
  );
  return result.rows[0];
}

async function rollback(client: PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : true);
  }
}

function parseText(text: string): ReadResult {
  if (text === '') return { state: 'missing' };
  // A text imported from the file store may keep the byte-order mark an editor saved there.
  const bom = text.charCodeAt(0) === 0xfeff;
  try {
    const doc = JSON.parse(bom ? text.slice(1) : text) as Json;
    return bom ? { state: 'ok', doc, text, bom } : { state: 'ok', doc, text };
  } catch (error) {
    return { state: 'corrupt', text, error: (error as Error).message };
  }
}

function parseMeta(text: string | undefined, key: string): DocMeta {
  if (text === undefined) return {};
  try {
    const meta = JSON.parse(text) as unknown;
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) return meta;
  } catch {
    // reported below
  }
  throw new BatonError(
    'corrupt',
    `the metadata of ${key} in PostgreSQL is not a JSON object; restore it with 'baton store import'`,
  );
}
