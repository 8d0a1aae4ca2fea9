/**
 * Where a project's server is found: `.baton/serve.json` (0600: it holds the token) with `url`,
 * `pid`, `token`, `version` and `build`, written once the server listens and removed when it stops. One
 * server per project: `.baton/serve.lock` (fs/lock.ts) is held for the server's whole life, so a
 * second start waits for it or reports the running one, and a dead server's lock is taken over.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { writeFileAtomic, unlinkQuietly } from '../fs/atomic.js';
import { readFileBounded, SMALL_FILE_MAX_BYTES } from '../fs/bounded-read.js';
import { mkdirInside } from '../fs/confine.js';
import { ignoreLocalState } from '../fs/local-state-folder.js';

export interface ServeInfo {
  url: string;
  pid: number;
  token: string;
  version: string;
  /**
   * The server's build (scripts/build-id.mjs); a server of before builds were told apart has none,
   * and is another build to every client.
   */
  build?: string;
  /** The dashboard's login URL (`{url}/ui?key=KEY`). */
  ui?: string;
}

export function servePaths(root: string): { dir: string; file: string; lock: string } {
  const dir = join(root, '.baton');
  return { dir, file: join(dir, 'serve.json'), lock: join(dir, 'serve.lock') };
}

export function readServeFile(root: string): ServeInfo | undefined {
  try {
    const file = servePaths(root).file;
    const text = readFileBounded(file, SMALL_FILE_MAX_BYTES, file, 'remove it; baton serve writes it again');
    const info = JSON.parse(text) as Partial<ServeInfo>;
    if (typeof info.url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+$/.test(info.url)) return undefined;
    if (typeof info.pid !== 'number' || typeof info.token !== 'string' || typeof info.version !== 'string')
      return undefined;
    if (info.build !== undefined && typeof info.build !== 'string') return undefined;
    if (info.ui !== undefined && (typeof info.ui !== 'string' || !info.ui.startsWith(`${info.url}/ui?key=`)))
      return undefined;
    return info as ServeInfo;
  } catch {
    // Missing, half-written, too large or not a regular file (a FIFO planted there is never
    // waited on): no server to ask, the hook runs in its own process.
    return undefined;
  }
}

/** One line of JSON, so the shell client (plugin/bin/baton) reads it with `read` and no fork. */
export function writeServeFile(root: string, info: ServeInfo): void {
  const { dir, file } = servePaths(root);
  mkdirInside(root, dir, '.baton folder');
  // Local state with a secret in it: never committed.
  ignoreLocalState(dir);
  writeFileAtomic(file, `${JSON.stringify(info)}\n`, { mode: 0o600, durable: false });
}

/** Removes serve.json only while it still names this server (a successor may have written its own). */
export function removeServeFile(root: string, token: string): void {
  if (readServeFile(root)?.token === token) unlinkQuietly(servePaths(root).file);
}

/** What a server is, as probe() reports it: its version and build, which must both be the client's. */
export function serverIdentity(version: string, build: string | undefined): string {
  return `${version}, build ${build ?? 'unknown'}`;
}

/**
 * The running server's identity (serverIdentity()), or undefined when nothing answers as it should
 * within `timeoutMs`; '' for a path other than /health that answered 200.
 */
export function probe(
  info: ServeInfo,
  path = '/health',
  method = 'GET',
  timeoutMs = 2000,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(
      `${info.url}${path}`,
      { method, headers: { Authorization: `Bearer ${info.token}` }, timeout: timeoutMs },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk.length + body.length > 4096 ? '' : chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve(undefined);
          if (path !== '/health') return resolve('');
          try {
            const seen = JSON.parse(body) as { version?: unknown; build?: unknown; pid?: unknown };
            if (typeof seen.version !== 'string' || seen.pid !== info.pid) return resolve(undefined);
            resolve(serverIdentity(seen.version, typeof seen.build === 'string' ? seen.build : undefined));
          } catch {
            resolve(undefined);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
