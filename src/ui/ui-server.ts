import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatonError, isBatonError, type ErrorCode } from '../core/errors.js';
import type { Json } from '../core/json.js';
// Inlined as text by esbuild: the bundle serves them, nothing is read from disk at run time.
import appCss from './assets/app.css' with { type: 'text' };
import appJs from './assets/app.js' with { type: 'text' };
import indexHtml from './assets/index.html' with { type: 'text' };
import {
  checkId,
  documentDetail,
  historyPage,
  listDocuments,
  openProject,
  readProjectFile,
  revertTo,
  revisionDiff,
  watchedFolders,
  type Project,
} from './dashboard-data.js';

/**
 * `baton ui`'s server: node:http, the page's three files inlined into the command's bundle, JSON
 * endpoints over the library, and Server-Sent Events driven by watching the documents' folders.
 *
 * Who may ask: a loopback bind checks the Host header (a web page elsewhere cannot reach it
 * through DNS rebinding); any other bind requires the token on every request. Writes (revert)
 * need --allow-writes, a JSON POST (a cross-site form cannot send one without a preflight we never
 * answer) and, when the browser sends one, this server's own Origin.
 */
export interface UiOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  host: string;
  port: number;
  token?: string | undefined;
  allowWrites: boolean;
  writer: string;
}

export interface UiServer {
  url: string;
  token: string | undefined;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const MAX_BODY = 4096;
const STATUS: Partial<Record<ErrorCode, number>> = {
  usage: 400,
  invalid: 400,
  not_found: 404,
  unsafe_path: 403,
  forbidden: 403,
  too_large: 413,
  lock_timeout: 503,
};
const HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};
const ASSETS: Record<string, [string, string]> = {
  '/': ['text/html; charset=utf-8', indexHtml],
  '/app.js': ['text/javascript; charset=utf-8', appJs],
  '/app.css': ['text/css; charset=utf-8', appCss],
};

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `0.0.0.0` and `::` listen on every interface but are no address a browser can open. */
export function isWildcard(host: string): boolean {
  return ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0'].includes(host);
}

/** The host of a URL for a listening address: a wildcard is opened through this machine's loopback. */
export function browsableHost(host: string): string {
  if (isWildcard(host)) return host.includes(':') ? '[::1]' : '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface DashboardOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  allowWrites: boolean;
  writer: string;
  /** The command and flag that allow writes, named when a write is refused. */
  writesFlag?: string;
  /** Headers added to the page's own files (the server that mounts it sets its session cookie on `/`). */
  assetHeaders?: (pathname: string) => Record<string, string>;
  /** Whether a write's Origin header names the page's own origin. */
  ownOrigin: (origin: string) => boolean;
}

export interface Dashboard {
  /** Answers a request its server has already let in (Host, token or cookie checked). */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): void;
  /** Pages listening for live updates, and whether their rescan timer and watches run. */
  live(): { pages: number; rescanning: boolean; watches: number };
  close(): void;
}

/**
 * The dashboard's pages and JSON endpoints, for any server that mounts it: `baton ui` below, and
 * `baton serve` (serve/server.ts), each with its own rule for who may ask.
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const project = openProject(options.root, options.env);
  const live = liveUpdates(project);

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const asset = ASSETS[url.pathname];
    if (asset && req.method === 'GET') {
      res.writeHead(200, { ...HEADERS, ...options.assetHeaders?.(url.pathname), 'Content-Type': asset[0] });
      res.end(asset[1]);
      return;
    }
    const param = (name: string) => url.searchParams.get(name) ?? '';
    const rev = (value: unknown) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new BatonError('usage', 'rev must be a revision number');
      return n;
    };
    switch (req.method === 'POST' ? `POST ${url.pathname}` : url.pathname) {
      case '/api/documents':
        return send(res, 200, {
          root: project.root,
          allowWrites: options.allowWrites,
          documents: (await listDocuments(project)) as unknown as Json,
        });
      case '/api/document':
        return send(res, 200, await documentDetail(project, checkId(project, param('doc'))));
      case '/api/history': {
        const id = checkId(project, param('doc'));
        return send(res, 200, {
          entries: (await historyPage(project, id, Number(param('limit')) || 100)) as unknown as Json,
        });
      }
      case '/api/diff':
        return send(res, 200, await revisionDiff(project, checkId(project, param('doc')), rev(param('rev'))));
      case '/api/file':
        return send(res, 200, { path: param('path'), text: readProjectFile(project, param('path')) });
      case '/api/events':
        return live.subscribe(res);
      case 'POST /api/revert': {
        if (!options.allowWrites)
          throw new BatonError(
            'forbidden',
            `the dashboard is read-only; start it with ${options.writesFlag ?? 'baton ui --allow-writes'} to revert`,
          );
        const body = await readJson(req, options.ownOrigin);
        const id = checkId(project, typeof body.doc === 'string' ? body.doc : '');
        if (id.startsWith('goal:')) throw new BatonError('usage', 'a goal has no revisions to revert');
        return send(res, 200, { rev: await revertTo(project, id, rev(body.rev), options.writer) });
      }
      default:
        throw new BatonError('not_found', `no such page: ${url.pathname}`);
    }
  };

  return {
    handle: (req, res, url) => void handle(req, res, url).catch((error: unknown) => fail(res, error)),
    live: () => live.state(),
    close: () => live.close(),
  };
}

export async function startUi(options: UiOptions): Promise<UiServer> {
  const token = options.token ?? (isLoopback(options.host) ? undefined : randomBytes(24).toString('base64url'));
  const tokenDigest = token === undefined ? undefined : digest(token);
  let port = 0;
  const dashboard = createDashboard({
    ...options,
    // The page's own script and stylesheet requests carry no query: the token rides in a
    // cookie only this origin's requests send.
    assetHeaders: (pathname): Record<string, string> =>
      token && pathname === '/'
        ? { 'Set-Cookie': `baton_ui_${port}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict` }
        : {},
    ownOrigin: (origin) => new URL(origin).port === String(port),
  });

  const allowed = (req: IncomingMessage, url: URL): boolean => {
    if (tokenDigest) {
      const given = url.searchParams.get('token') ?? cookie(req, `baton_ui_${port}`);
      return typeof given === 'string' && timingSafeEqual(digest(given), tokenDigest);
    }
    const host = req.headers.host ?? '';
    return (
      [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host) || host === `${options.host}:${port}`
    );
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://ui.invalid');
    if (!allowed(req, url))
      return send(res, 401, {
        error: {
          code: 'forbidden',
          message: token ? 'a valid token is required: open the URL baton ui printed' : 'unexpected Host header',
        },
      });
    dashboard.handle(req, res, url);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${browsableHost(options.host)}:${port}/${token ? `?token=${encodeURIComponent(token)}` : ''}`,
    token,
    close: async () => {
      dashboard.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function safeOrigin(origin: string, ownOrigin: (origin: string) => boolean): boolean {
  try {
    return ownOrigin(origin);
  } catch {
    // `null` (a sandboxed frame, a file: page) or no URL at all: not the page's own origin.
    return false;
  }
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, value] = part.trim().split('=');
    if (key === name && value !== undefined) {
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: Json): void {
  res.writeHead(status, { ...HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy();
  if (isBatonError(error))
    return send(res, STATUS[error.code] ?? 500, { error: { code: error.code, message: error.message } });
  send(res, 500, { error: { code: 'internal', message: String((error as Error)?.message ?? error) } });
}

async function readJson(req: IncomingMessage, ownOrigin: (origin: string) => boolean): Promise<Record<string, Json>> {
  if (!String(req.headers['content-type']).startsWith('application/json'))
    throw new BatonError('forbidden', 'a write must be a JSON request from the page');
  const origin = req.headers.origin;
  if (origin !== undefined && !safeOrigin(origin, ownOrigin))
    throw new BatonError('forbidden', `a write from ${origin} is refused`);
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_BODY) throw new BatonError('too_large', 'request body too large');
  }
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, Json>;
  } catch {
    // answered below
  }
  throw new BatonError('usage', 'the body must be a JSON object');
}

/**
 * Live updates: one fs.watch per folder that holds documents (plus the project root, .ai_log,
 * the goals and the wave file's folder), rather than the store's per-document watch, so one
 * watcher covers a folder's documents and also sees new ones. Any change is debounced briefly
 * and sent to every open page as one `change` event; the page then refetches what it shows.
 *
 * Only while a page listens: the watches, the rescan and the ping start with the first stream
 * and stop with the last, so a server a page once visited (`baton serve` lives for hours) is
 * idle again, with no timer and no watch, once the page is closed.
 */
function liveUpdates(project: Project) {
  const clients = new Set<ServerResponse>();
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let rescan: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void refresh();
      for (const res of clients) res.write(`event: change\ndata: ${Date.now()}\n\n`);
    }, 40);
  };
  let closed = false;
  let listed: string | undefined;
  const refresh = async () => {
    const watched = await watchedFolders(project);
    if (closed || rescan === undefined) return;
    // A commit no folder here shows (a shared store, another machine) changes the listing.
    if (listed !== undefined && watched.listing !== listed) changed();
    listed = watched.listing;
    const folders = new Set(watched.folders);
    for (const [folder, watcher] of watchers) {
      if (!folders.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, changed);
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        // not there (yet): the next refresh tries again
      }
    }
  };
  const start = () => {
    // A document in a folder nobody watched yet (a new subfolder deep down), or committed on
    // another machine, is found by a rescan.
    rescan = setInterval(() => void refresh(), 3000);
    ping = setInterval(() => {
      for (const res of clients) res.write(': ping\n\n');
    }, 15000);
    rescan.unref();
    ping.unref();
    // Nothing was watched while no page listened: once the watches are up, the pages refetch, so a
    // change made before (while the page loaded its data) is not missed.
    void refresh().then(() => rescan !== undefined && changed());
  };
  const stop = () => {
    clearTimeout(timer);
    clearInterval(rescan);
    clearInterval(ping);
    rescan = ping = timer = undefined;
    listed = undefined;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };

  return {
    subscribe(res: ServerResponse) {
      res.writeHead(200, { ...HEADERS, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write('retry: 500\n\n');
      clients.add(res);
      if (clients.size === 1 && !closed) start();
      res.on('close', () => {
        clients.delete(res);
        if (clients.size === 0) stop();
      });
    },
    /** The pages listening now, and whether the rescan timer is armed: a test reads it, not a clock. */
    state: () => ({ pages: clients.size, rescanning: rescan !== undefined, watches: watchers.size }),
    close() {
      closed = true;
      stop();
      for (const res of clients) res.end();
    },
  };
}
