import { BatonError, isBatonError } from '../../core/errors.js';

/** A connection string without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL connection string (it does not parse as a URL)';
  }
}

/** host:port/database of a connection string, which is what a user checks first. */
export function target(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return redact(url);
  }
}

interface PgLike {
  code?: unknown;
  message?: unknown;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Errors after which the session is gone: the server shut down or crashed (57P01/57P02), is not
 * accepting sessions yet (57P03), or the socket dropped. Whatever the transaction had not committed
 * was rolled back by the server.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (isBatonError(error)) return false;
  const { code, message } = (error ?? {}) as PgLike;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^57P0[123]$/.test(code) || code.startsWith('08')))
    return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection is closed|Client has encountered a connection error/i.test(message)
  );
}

/** Worth another connect attempt: the server is not up yet, or is restarting. */
export function isTransientConnect(error: unknown): boolean {
  const { code } = (error ?? {}) as PgLike;
  return code === 'ECONNREFUSED' || code === '57P03' || isConnectionLoss(error);
}

/**
 * Any failure from node-postgres as a one-line BatonError naming the fix. The password never
 * appears: messages name host, port and database only.
 */
export function fromPgError(error: unknown, url: string, key?: string): BatonError {
  if (isBatonError(error)) return error;
  const { code, message } = (error ?? {}) as PgLike;
  const where = target(url);
  const text = typeof message === 'string' ? message.split('\n')[0] : String(error);
  switch (code) {
    case '28P01':
    case '28000':
      return new BatonError(
        'io',
        `PostgreSQL at ${where} refused the login (${text}); fix the user or password in the connection string`,
        { cause: error },
      );
    case '3D000':
      return new BatonError(
        'io',
        `PostgreSQL at ${where}: ${text}; create it (createdb) and run 'baton store migrate'`,
        { cause: error },
      );
    case '53300':
      return new BatonError(
        'io',
        `PostgreSQL at ${where} has no free connection slots (max_connections); close idle clients or raise max_connections, then retry`,
        { cause: error },
      );
    case '55P03':
      return new BatonError(
        'lock_timeout',
        `${key ?? 'a document'} stayed locked by another writer past lock_timeout; retry, or find the stuck writer in pg_stat_activity`,
        { cause: error },
      );
    case '42P01':
      return notMigrated(url);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new BatonError(
        'io',
        `cannot resolve the PostgreSQL host of ${where}; fix the host in the connection string`,
        {
          cause: error,
        },
      );
  }
  if (code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new BatonError(
      'io',
      `cannot connect to PostgreSQL at ${where} (${String(code)}); start the server or fix the host and port in the connection string`,
      { cause: error },
    );
  if (isConnectionLoss(error))
    return new BatonError(
      'io',
      `lost the connection to PostgreSQL at ${where} (${text})${key ? `; nothing was written to ${key}` : ''}; retry when the server is back`,
      { cause: error },
    );
  return new BatonError('io', `PostgreSQL at ${where} failed: ${text}${typeof code === 'string' ? ` (${code})` : ''}`, {
    cause: error,
  });
}

export function notMigrated(url: string): BatonError {
  return new BatonError(
    'io',
    `the database at ${target(url)} has no baton tables; run 'baton store migrate' with this store to create them`,
  );
}
