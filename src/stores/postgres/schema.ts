/**
 * The tables, versioned. Each step upgrades the schema from its index to the next version; only
 * `baton store migrate` runs them, so an ordinary command never changes a shared database behind
 * the backs of the other machines' (possibly older) batons.
 *
 * Documents and history are stored as text, not jsonb: jsonb reorders keys and drops duplicates,
 * and a document must read back byte for byte as written (its history entries hash that text).
 */
import { BatonError } from '../../core/errors.js';
import type { PoolClient } from 'pg';
import { notMigrated, target } from './postgres-errors.js';

const STEPS: string[] = [
  `CREATE TABLE IF NOT EXISTS baton_meta (name text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE IF NOT EXISTS baton_documents (
     project text NOT NULL,
     key text NOT NULL,
     rev integer NOT NULL,
     text text NOT NULL,
     meta text NOT NULL,
     PRIMARY KEY (project, key)
   );
   CREATE TABLE IF NOT EXISTS baton_history (
     project text NOT NULL,
     key text NOT NULL,
     rev integer NOT NULL,
     snapshot boolean NOT NULL,
     entry text NOT NULL,
     PRIMARY KEY (project, key, rev)
   );`,
];

export const SCHEMA_VERSION = STEPS.length;

/** The LISTEN/NOTIFY channel commits are announced on (payload: a hash of project and key). */
export const CHANNEL = 'baton_commits';

async function storedVersion(client: PoolClient): Promise<number | undefined> {
  const exists = await client.query<{ name: string | null }>(`SELECT to_regclass('baton_meta')::text AS name`);
  if (exists.rows[0]?.name === null) return undefined;
  const rows = await client.query<{ value: string }>(`SELECT value FROM baton_meta WHERE name = 'schema_version'`);
  return rows.rows[0] ? Number(rows.rows[0].value) : undefined;
}

/** Refuses to work on a database whose schema is missing or of another version. */
export async function checkSchema(client: PoolClient, url: string): Promise<void> {
  const version = await storedVersion(client);
  if (version === undefined) throw notMigrated(url);
  if (version < SCHEMA_VERSION)
    throw new BatonError(
      'io',
      `the baton tables at ${target(url)} are at schema version ${version}, this baton needs ${SCHEMA_VERSION}; run 'baton store migrate' to upgrade them`,
    );
  if (version > SCHEMA_VERSION)
    throw new BatonError(
      'io',
      `the baton tables at ${target(url)} are at schema version ${version}, newer than this baton's ${SCHEMA_VERSION}; upgrade baton on this machine`,
    );
}

/**
 * Creates or upgrades the tables in one transaction, serialised against a concurrent migrate by
 * an advisory lock. Returns the versions before and after.
 */
export async function migrateSchema(client: PoolClient, url: string): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('baton migrate'))`);
    const from = (await storedVersion(client)) ?? 0;
    if (from > SCHEMA_VERSION)
      throw new BatonError(
        'io',
        `the baton tables at ${target(url)} are at schema version ${from}, newer than this baton's ${SCHEMA_VERSION}; upgrade baton on this machine`,
      );
    for (const step of STEPS.slice(from)) await client.query(step);
    await client.query(
      `INSERT INTO baton_meta (name, value) VALUES ('schema_version', $1)
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
      [String(SCHEMA_VERSION)],
    );
    await client.query('COMMIT');
    return { from, to: SCHEMA_VERSION };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
