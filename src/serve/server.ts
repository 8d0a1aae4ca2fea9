/**
 * `baton serve`'s HTTP face: hooks answered by one resident process, so a hook call starts no
 * Node. `POST /hooks/{Event}` with the host's JSON payload as body answers exactly what
 * `baton hook {Event}` prints (harness/hooks/hook-front.ts decides for both): status 200, the hook's
 * stdout as body, empty when nothing is said. `POST /statusline` answers what `baton statusline`
 * prints. `{url}/mcp` is baton's MCP server over streamable HTTP (serve/mcp-http.ts), and every
 * other path is the dashboard (ui/ui-server.ts's handler, as `baton ui` serves it).
 *
 * Who may ask the hooks, the status line and MCP: a bearer token (a random one per start, in the 0600 serve.json) on every request,
 * and a Host header naming this loopback address (a web page reaching 127.0.0.1 through DNS
 * rebinding sends its own name). A request with an Origin header comes from a browser and is
 * refused: the hosts that call hooks send none. Bodies are bounded as hook stdin is (a larger one
 * reads as garbage, which gated events deny), and slow senders by the request timeout.
 *
 * The dashboard is opened in a browser, which cannot send the token, and a browser also runs other
 * local pages that must neither read nor drive it. So it has its own key: `GET /ui?key=KEY` (the
 * URL the CLI prints; serve.json's `ui`) sets an HttpOnly, SameSite=Strict session cookie and
 * redirects to `/`; every dashboard request needs that cookie, the same Host check, and an Origin,
 * when one is sent, of this server itself. Another origin's page cannot read an answer (no CORS
 * header is ever sent), its cross-site requests carry no cookie, and a write (a JSON POST, which a
 * form cannot send without a preflight nobody answers) from it is refused by its Origin.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { STDIN_MAX_BYTES } from '../fs/bounded-read.js';
import { keepReads, keptReadCounts } from '../fs/kept-reads.js';
import { answerHook, type HookCall } from '../harness/hooks/hook-front.js';
import { judgedEnvVariants } from '../harness/hooks/judged-env.js';
import { sharedState } from './shared-state.js';
import type { Rendered } from '../harness/hooks/types.js';
import type { Dashboard } from '../ui/ui-server.js';
import { answerKey, answerTag } from './answer-key.js';
import type { McpHttp } from './mcp-http.js';
import { cliForwarding, listenCli } from './cli-forward.js';
import { CLI_PATH, CLI_PROTOCOL } from './cli-protocol.js';

export interface ServeOptions {
  /** The working folder hooks are judged from, as a command hook's process would have it. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  script?: string | undefined;
  port: number;
  /** The server ends after this long without a request (0: never). */
  idleMs: number;
  version: string;
  /** This build's identity (scripts/build-id.mjs): clients of another build are not answered as its own. */
  build: string;
  goalHooks: HookCall['goalHooks'];
  /** The dashboard may revert a document (recorded as writer `ui`), as `baton ui --allow-writes`. */
  allowWrites: boolean;
}

export interface Served {
  url: string;
  port: number;
  token: string;
  /** The dashboard's login URL: `{url}/ui?key=KEY`. */
  ui: string;
  /** Resolves once the server has stopped: idle, `POST /shutdown`, or close(). */
  stopped: Promise<void>;
  close(): Promise<void>;
}

/** The paths of the hook side; every other path is the dashboard's. */
const HOOK_SIDE = /^\/(hooks\/|statusline$|health$|shutdown$|mcp$)/;

/** How long a request may take to arrive whole; a hook payload is one small write. */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

const digest = (text: string) => createHash('sha256').update(text).digest();

export async function startServe(options: ServeOptions): Promise<Served> {
  const key = answerKey(options.env);
  const token = randomBytes(24).toString('base64url');
  const bearer = Buffer.from(`Bearer ${token}`);
  const uiKey = randomBytes(24).toString('base64url');
  const uiKeyDigest = digest(uiKey);
  const session = randomBytes(24).toString('base64url');
  const sessionDigest = digest(session);
  const judgedEnvs = judgedEnvVariants(options.cwd, options.env);
  let port = 0;
  let inFlight = 0;
  /** Hooks and status lines answered: /health says it, so a client (and a test) can tell the server did the work. */
  let answered = 0;
  /** Of those, status lines: a test of a real session tells the server drew it. */
  let statuslines = 0;
  let stopping = false;
  let markStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  // Both faces load on their first request: a server that only answers hooks never loads them.
  let dashboard: Dashboard | undefined;
  let mcp: McpHttp | undefined;
  // One store (one connection pool) for the server's life, its documents kept by revision.
  const shared = sharedState();
  // CLI commands a client hands over (serve/cli-forward.ts), each held here until it has answered.
  const forwarding = cliForwarding({ root: options.cwd, version: options.version, build: options.build });
  let closeCli: (() => void) | undefined = undefined;
  const commands = new Set<Promise<void>>();

  const hostAllowed = (req: IncomingMessage): boolean => {
    const host = req.headers.host ?? '';
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
  };
  const allowed = (req: IncomingMessage): boolean => {
    if (req.headers.origin !== undefined) return false;
    // Compared as bytes, not hashed first (a hash per call was 2% of the server's CPU): the length
    // they must share is public, a token is always as long.
    const given = typeof req.headers.authorization === 'string' ? Buffer.from(req.headers.authorization) : undefined;
    return given?.length === bearer.length && timingSafeEqual(given, bearer);
  };
  const ownOrigin = (origin: string) => origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
  const cookieName = () => `baton_serve_${port}`;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    if (!hostAllowed(req)) return refuse(res);
    if (!HOOK_SIDE.test(url.pathname)) {
      idle.refresh();
      return void page(req, res, url).catch(() => fail(res));
    }
    if (!allowed(req)) return refuse(res);
    inFlight++;
    idle.refresh();
    handle(req, res)
      .catch(() => fail(res))
      .finally(() => {
        inFlight--;
        idle.refresh();
      });
  });
  // `GET /cli` upgraded: the hook side's checks, then the CLI exchange on the raw connection.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://serve.invalid').pathname;
    const protocol = req.headers.upgrade;
    if (stopping || !hostAllowed(req) || !allowed(req) || path !== CLI_PATH || protocol !== CLI_PROTOCOL)
      return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    inFlight++;
    idle.refresh();
    const switched = `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${CLI_PROTOCOL}\r\n\r\n`;
    const done = forwarding.handle(socket, head, switched).finally(() => {
      commands.delete(done);
      inFlight--;
      idle.refresh();
    });
    commands.add(done);
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;

  /** The dashboard: its login, then its pages for a request with the session cookie. */
  const page = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const origin = req.headers.origin;
    if (origin !== undefined && !ownOrigin(origin)) return refuse(res);
    if (url.pathname === '/ui' && req.method === 'GET') {
      const key = url.searchParams.get('key');
      if (key === null || !timingSafeEqual(digest(key), uiKeyDigest)) return refuse(res, 'the dashboard');
      res.writeHead(303, {
        'Set-Cookie': `${cookieName()}=${session}; Path=/; HttpOnly; SameSite=Strict`,
        Location: '/',
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Length': 0,
      });
      return void res.end();
    }
    const given = cookie(req, cookieName());
    if (given === undefined || !timingSafeEqual(digest(given), sessionDigest)) return refuse(res, 'the dashboard');
    const { createDashboard } = await import('../ui/ui-server.js');
    dashboard ??= createDashboard({
      root: options.cwd,
      env: options.env,
      allowWrites: options.allowWrites,
      writer: 'ui',
      writesFlag: 'baton serve --allow-writes',
      ownOrigin,
    });
    dashboard.handle(req, res, url);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    const hook = /^\/hooks\/([A-Za-z]{1,64})$/.exec(url.pathname);
    if (req.method === 'POST' && hook) {
      // A shared store's revision check goes out now, while the payload and config are read.
      const fetchShared = shared.arrived(hook[1] as string);
      const payload = await readBody(req);
      // The shell client names the environment its session would judge with; another one than this
      // server's is not judged here (no side effect either), and the client judges in process.
      const named = url.searchParams.get('env');
      const env = named === null ? options.env : judgedEnvs.get(named);
      if (env === undefined)
        return send(
          res,
          409,
          'text/plain',
          'baton serve: this session judges with another environment than the server; run the hook in process\n',
        );
      const rendered = await answerHook({
        event: hook[1] as string,
        host: url.searchParams.get('host') ?? undefined,
        profile: url.searchParams.get('profile') ?? undefined,
        payload,
        cwd: options.cwd,
        env,
        script: options.script,
        goalHooks: options.goalHooks,
        fetchShared,
      });
      answered++;
      // A shell client's nonce asks for the tag that proves this server holds the key (answer-key.ts).
      const nonce = url.searchParams.get('nonce');
      const sign = nonce && /^[0-9a-f]{16,64}$/.test(nonce) ? { key, target: req.url ?? '', payload } : undefined;
      return answer(res, rendered, url.searchParams.get('client') === 'sh', sign);
    }
    if (req.method === 'POST' && url.pathname === '/statusline') {
      // What `baton statusline` prints for this status JSON: the host's line, drawn without a Node start.
      const stdin = await readBody(req);
      const { runStatusline } = await import('../harness/statusline/statusline.js');
      const line = await runStatusline({ stdin, env: options.env, cwd: options.cwd, resident: true });
      answered++;
      statuslines++;
      return answer(res, { stdout: line, stderr: '', code: 0 }, url.searchParams.get('client') === 'sh');
    }
    if (url.pathname === '/mcp') {
      // The SDK answers GET (a stream it does not offer here: 405) and DELETE (end the session).
      const body = await readBody(req);
      const { mcpOverHttp } = await import('./mcp-http.js');
      mcp ??= mcpOverHttp({ cwd: options.cwd, env: options.env, version: options.version });
      return mcp.handle(req, res, body);
    }
    if (req.method === 'GET' && url.pathname === '/health') {
      await readBody(req);
      return send(
        res,
        200,
        'application/json',
        `${JSON.stringify({ version: options.version, build: options.build, pid: process.pid, answered, statuslines, kept: keptReadCounts(), shared: shared.counts(), cli: forwarding.counts(), dashboard: dashboard?.live() ?? { pages: 0, rescanning: false, watches: 0 } })}\n`,
      );
    }
    if (req.method === 'POST' && url.pathname === '/shutdown') {
      await readBody(req);
      send(res, 200, 'text/plain', '');
      void stop();
      return;
    }
    await readBody(req);
    send(res, 404, 'text/plain', `baton serve: no such path: ${url.pathname}\n`);
  };

  const refuse = (res: ServerResponse, what = 'a request'): void => {
    // Nothing of the request is read: the connection ends with the answer.
    res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' });
    res.end(
      what === 'a request'
        ? 'baton serve: a request needs the token from .baton/serve.json and Host 127.0.0.1\n'
        : `baton serve: ${what} needs the URL baton serve printed (serve.json's "ui"), opened in a browser\n`,
    );
  };

  const stop = async (): Promise<void> => {
    if (stopping) return stopped;
    stopping = true;
    clearTimeout(idle);
    dashboard?.close();
    await mcp?.close();
    server.closeIdleConnections();
    closeCli?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // A command taken (its `go` read) is carried out and answered before the store closes.
    await Promise.all(commands);
    keepReads(false);
    await shared.close();
    markStopped();
  };

  // Idle: no request for idleMs and none in flight. One timer, refreshed per request: no wake-ups while idle.
  const idle = setTimeout(
    function expire() {
      if (inFlight > 0) return void idle.refresh();
      void stop();
    },
    options.idleMs || 2 ** 31 - 1,
  );
  if (options.idleMs === 0) clearTimeout(idle);

  // The files hooks read stay in memory between calls, each checked by one stat per use (fs/kept-reads.ts).
  keepReads(true);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  }).catch(async (error: unknown) => {
    // Not listening, so nothing will ever stop it: the idle timer would hold the process up for its hour.
    await stop();
    throw error;
  });
  port = (server.address() as AddressInfo).port;
  closeCli = await listenCli(server, options.cwd, options.env);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    ui: `http://127.0.0.1:${port}/ui?key=${uiKey}`,
    stopped,
    close: async () => {
      server.closeAllConnections();
      await stop();
    },
  };
}

/**
 * A hook's answer. Claude Code's HTTP hooks read the body as a command hook's stdout; an exit code
 * or stderr has no place there. The shell client (plugin/lib/serve-client.bash) asks with
 * `?client=sh` and gets all three, each followed by an ASCII record separator (which JSON never
 * holds raw), so it can print and exit exactly as `baton hook` would; with `&nonce=HEX` the tag
 * of answer-key.ts follows, 64 hex digits.
 */
function answer(
  res: ServerResponse,
  rendered: Rendered,
  shell: boolean,
  sign?: { key: string; target: string; payload: string },
): void {
  if (!shell) return send(res, 200, 'application/json', rendered.stdout);
  const body = `${rendered.stdout}${RS}${rendered.stderr}${RS}${rendered.code}${RS}`;
  send(res, 200, 'text/plain', sign ? body + answerTag(sign.key, sign.target, sign.payload, body) : body);
}

const RS = '\x1e';

/**
 * The body, at most STDIN_MAX_BYTES as `baton hook` reads stdin: a larger one reads as '' (garbage,
 * which a gated event denies) and the rest is dropped unread.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > STDIN_MAX_BYTES) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? '' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/** baton itself failed past the hook's own fail-closed path: 500, which no client reads as an answer. */
function fail(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  send(res, 500, 'text/plain', 'baton serve: internal error; run the hook in process (baton hook EVENT)\n');
}

/** The named cookie's value (the page's session), undefined when the request carries none. */
function cookie(req: IncomingMessage, name: string): string | undefined {
  const found = (req.headers.cookie ?? '').split(/;\s*/).find((part) => part.startsWith(`${name}=`));
  return found?.slice(name.length + 1);
}
