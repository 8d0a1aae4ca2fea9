import { createHash } from 'node:crypto';
import type { Client, Pool, PoolClient, QueryResult } from 'pg';
import { BatonError } from '../../core/errors.js';
import type { Json } from '../../core/json.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../../core/runtime-options.js';
import type { DocumentDump, PortableStore } from '../portable.js';
import { replay } from '../replay.js';
import {
  checkNextRevision,
  type Current,
  type Decision,
  type DocMeta,
  type HistoryEntry,
  type Listing,
  type ReadResult,
  type Store,
} from '../store.js';
import { fromPgError, isConnectionLoss, isTransientConnect, target } from './errors.js';
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
  private readonly pool: Pool;
  private checked = false;
  private watching?: Watching;
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
    this.pool = new pg.Pool({
      Client: guardedClient(pg),
      connectionString: options.url,
      max: this.poolSize,
      connectionTimeoutMillis: budget ?? this.lockTimeoutMs,
      ...(budget !== undefined ? { query_timeout: budget } : {}),
      application_name: 'baton',
      // Idle pooled connections do not hold the process open: a command ends when its work does,
      // not when the pool's idle timer runs out (10 s), and no face has to remember to close.
      allowExitOnIdle: true,
      // Every lock wait ends with lock_not_available after this long, reported as lock_timeout.
      options: `-c lock_timeout=${this.lockTimeoutMs}`,
    });
    // An idle pooled connection cut by a server restart must not crash the process: the next use
    // connects afresh.
    this.pool.on('error', () => undefined);
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
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      // The server process of this session, to settle a commit whose answer is lost.
      const backend = (client as unknown as { processID: number }).processID;
      let committing = false;
      let decision: Decision<T> | undefined;
      try {
        // Round trips are most of an update's cost, so the statements that need no answer in
        // between go together as one simple query, their values as escaped literals.
        const lit = (value: string) => client.escapeLiteral(value);
        const where = `project = ${lit(this.project)} AND key = ${lit(key)}`;
        const opened = (await client.query(
          `BEGIN; SELECT rev, text, meta FROM baton_documents WHERE ${where} FOR UPDATE`,
        )) as unknown as QueryResult<LockedRow>[];
        let row = opened[1]?.rows[0];
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
          return decision.result;
        }
        checkNextRevision(change, current.rev, key);
        const entry = change.entry;
        const meta = change.meta ? lit(JSON.stringify(change.meta)) : 'meta';
        // COMMIT travels with the write: from here on, a lost answer may mean a landed commit.
        committing = true;
        const [written] = (await client.query(
          `WITH d AS (
             UPDATE baton_documents SET rev = ${entry.rev}, text = ${lit(change.text)}, meta = ${meta}
             WHERE ${where} AND rev = ${entry.rev - 1}
             RETURNING 1
           )
           INSERT INTO baton_history (project, key, rev, snapshot, entry)
           SELECT ${lit(this.project)}, ${lit(key)}, ${entry.rev}, ${entry.snapshot !== undefined}, ${lit(JSON.stringify(entry))} FROM d;
           COMMIT`,
        )) as unknown as QueryResult[];
        // Under the row lock the revision cannot have moved; if it did, the COMMIT above
        // committed nothing, and the writer is told so.
        if (written?.rowCount !== 1)
          throw new BatonError('lock_lost', `${key} changed under its row lock; nothing was written; retry`);
        client.release(!(await this.announce(client, key)));
      } catch (error) {
        const lost = isConnectionLoss(error);
        if (lost) client.release(true);
        else await rollback(client);
        if (lost && committing && decision?.commit) {
          // The COMMIT was sent and its answer lost: whether it landed is read back, never guessed.
          if (!(await this.landed(key, decision.commit.entry, backend, error))) {
            throw new BatonError(
              'io',
              `lost the connection to PostgreSQL at ${target(this.url)} while committing ${key}; the commit did not land (revision ${decision.commit.entry.rev} is not in history); retry`,
              { cause: error },
            );
          }
        } else if (lost && attempt < TRANSACTION_ATTEMPTS) {
          // Nothing was committed (the server rolls back a transaction whose session ends), so
          // deciding again on a new connection is safe.
          continue;
        } else {
          throw fromPgError(error, this.url, key);
        }
      }
      decision?.committed?.();
      if (decision.commit) this.watching?.committed(key, decision.commit.entry.rev);
      return decision.result;
    }
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
        (keys) => this.revisions(keys),
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

  /**
   * Tells listeners on other connections that `key` moved. Not inside the write's transaction: a
   * NOTIFY there takes a database-wide lock held through that commit's WAL flush, so concurrent
   * commits could no longer share a flush (it cost 3x in throughput, docs/benchmarks.md). Sent
   * after it, in a transaction of its own that waits for no flush (the notification is a wake-up,
   * not data: the document is already durable), the lock is held for microseconds. False when the
   * session broke, so the pool drops it; a failed notification costs watchers a poll interval.
   */
  private async announce(client: PoolClient, key: string): Promise<boolean> {
    try {
      await client.query(
        `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_notify('${CHANNEL}', ${client.escapeLiteral(this.channelKey(key))}); COMMIT`,
      );
      return true;
    } catch (error) {
      if (isConnectionLoss(error)) return false;
      await rollback(client);
      return true;
    }
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

  private async revisions(keys: string[]): Promise<Map<string, number>> {
    const rows = await this.withClient(
      async (client) =>
        (
          await client.query<{ key: string; rev: number }>(
            `SELECT key, rev FROM baton_documents WHERE project = $1 AND key = ANY($2)`,
            [this.project, keys],
          )
        ).rows,
    );
    return new Map(rows.map((row) => [row.key, row.rev]));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watching?.stop();
    this.watching = undefined;
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
   */
  private async landed(key: string, entry: HistoryEntry, backend: number, cause: unknown): Promise<boolean> {
    try {
      return await this.withClient(async (client) => {
        await client.query(`SELECT pg_terminate_backend($1) FROM pg_stat_activity WHERE pid = $1`, [backend]);
        for (;;) {
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

interface LockedRow {
  rev: number;
  text: string;
  meta: string;
}

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
