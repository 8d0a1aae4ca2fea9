/**
 * `baton serve`'s HTTP face: hooks answered by one resident process, so a hook call starts no
 * Node. `POST /hooks/{Event}` with the host's JSON payload as body answers exactly what
 * `baton hook {Event}` prints (harness/hooks/hook-front.ts decides for both): status 200, the hook's
 * stdout as body, empty when nothing is said. `POST /statusline` answers what `baton statusline`
 * prints.
 *
 * Who may ask: a bearer token (a random one per start, in the 0600 serve.json) on every request,
 * and a Host header naming this loopback address (a web page reaching 127.0.0.1 through DNS
 * rebinding sends its own name). A request with an Origin header comes from a browser and is
 * refused: the hosts that call hooks send none. Bodies are bounded as hook stdin is (a larger one
 * reads as garbage, which gated events deny), and slow senders by the request timeout.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STDIN_MAX_BYTES } from '../fs/bounded-read.js';
import { keepReads, keptReadCounts } from '../fs/kept-reads.js';
import { answerHook, type HookCall } from '../harness/hooks/hook-front.js';
import type { Rendered } from '../harness/hooks/types.js';

export interface ServeOptions {
  /** The working folder hooks are judged from, as a command hook's process would have it. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  script?: string | undefined;
  port: number;
  /** The server ends after this long without a request (0: never). */
  idleMs: number;
  version: string;
  goalHooks: HookCall['goalHooks'];
}

export interface Served {
  url: string;
  port: number;
  token: string;
  /** Resolves once the server has stopped: idle, `POST /shutdown`, or close(). */
  stopped: Promise<void>;
  close(): Promise<void>;
}

/** How long a request may take to arrive whole; a hook payload is one small write. */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

const digest = (text: string) => createHash('sha256').update(text).digest();

export async function startServe(options: ServeOptions): Promise<Served> {
  const token = randomBytes(24).toString('base64url');
  const tokenDigest = digest(`Bearer ${token}`);
  let port = 0;
  let inFlight = 0;
  /** Hooks and status lines answered: /health says it, so a client (and a test) can tell the server did the work. */
  let answered = 0;
  let stopping = false;
  let markStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  const allowed = (req: IncomingMessage): boolean => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return false;
    if (req.headers.origin !== undefined) return false;
    const given = req.headers.authorization;
    return typeof given === 'string' && timingSafeEqual(digest(given), tokenDigest);
  };

  const server = createServer((req, res) => {
    if (!allowed(req)) {
      // Nothing of the request is read: the connection ends with the answer.
      res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' });
      res.end('baton serve: a request needs the token from .baton/serve.json and Host 127.0.0.1\n');
      return;
    }
    inFlight++;
    idle.refresh();
    handle(req, res)
      .catch(() => fail(res))
      .finally(() => {
        inFlight--;
        idle.refresh();
      });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    const hook = /^\/hooks\/([A-Za-z]{1,64})$/.exec(url.pathname);
    if (req.method === 'POST' && hook) {
      const payload = await readBody(req);
      const rendered = await answerHook({
        event: hook[1] as string,
        host: url.searchParams.get('host') ?? undefined,
        profile: url.searchParams.get('profile') ?? undefined,
        payload,
        cwd: options.cwd,
        env: options.env,
        script: options.script,
        goalHooks: options.goalHooks,
      });
      answered++;
      return answer(res, rendered, url.searchParams.get('client') === 'sh');
    }
    if (req.method === 'POST' && url.pathname === '/statusline') {
      // What `baton statusline` prints for this status JSON: the host's line, drawn without a Node start.
      const stdin = await readBody(req);
      const { runStatusline } = await import('../harness/statusline/statusline.js');
      const line = await runStatusline({ stdin, env: options.env, cwd: options.cwd });
      answered++;
      return answer(res, { stdout: line, stderr: '', code: 0 }, url.searchParams.get('client') === 'sh');
    }
    if (req.method === 'GET' && url.pathname === '/health') {
      await readBody(req);
      return send(
        res,
        200,
        'application/json',
        `${JSON.stringify({ version: options.version, pid: process.pid, answered, kept: keptReadCounts() })}\n`,
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

  const stop = async (): Promise<void> => {
    if (stopping) return stopped;
    stopping = true;
    clearTimeout(idle);
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    keepReads(false);
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
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    stopped,
    close: async () => {
      server.closeAllConnections();
      await stop();
    },
  };
}

/**
 * A hook's answer. Claude Code's HTTP hooks read the body as a command hook's stdout; an exit code
 * or stderr has no place there. The shell client (plugin/bin/baton) asks with `?client=sh` and
 * gets all three, each followed by an ASCII record separator (which JSON never holds raw), so it
 * can print and exit exactly as `baton hook` would.
 */
function answer(res: ServerResponse, rendered: Rendered, shell: boolean): void {
  if (!shell) return send(res, 200, 'application/json', rendered.stdout);
  send(res, 200, 'text/plain', `${rendered.stdout}${RS}${rendered.stderr}${RS}${rendered.code}${RS}`);
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
