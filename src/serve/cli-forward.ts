/**
 * The server's side of CLI commands answered by `baton serve` (serve/cli-protocol.ts has the
 * exchange, cli/serve-client.ts the client; docs/serve.md, "CLI commands through the server").
 * A command runs here through the CLI's own boundary (cli/run-cli.ts) and command modules, with
 * the caller's argv, working folder and environment, and what it prints is collected and sent
 * back: the same bytes and exit code as in the caller's process, from code already compiled.
 *
 * What this process would otherwise lend the command of its own is checked instead: its user,
 * group and umask (which a file the command creates takes), its sandbox, namespaces and privileges
 * (cli-protocol.ts processContext()), the variables in SAME_ENV, and the project (the caller's
 * root must be this server's). A caller that differs in any is refused, and runs the command in
 * process. So is one inside the phase sandbox, whose state is read-only, and one on a shared store.
 */
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { BatonError } from '../core/errors.js';
import type { CommandIo } from '../core/command-io.js';
import { ALL_DEFINITIONS } from '../cli/definitions.js';
import { runCli, type CommandModule } from '../cli/run-cli.js';
import * as append from '../cli/commands/append.js';
import * as clear from '../cli/commands/clear.js';
import * as consume from '../cli/commands/consume.js';
import * as get from '../cli/commands/get.js';
import * as set from '../cli/commands/set.js';
import * as update from '../cli/commands/update.js';
import { defaultRoot } from '../project/root.js';
import { projectContext } from '../project/project-context.js';
import { chooseStore } from '../stores/index.js';
import { FORWARDED } from './forwarded.js';
import { serverIdentity } from './state.js';
import { unlinkQuietly } from '../fs/atomic.js';
import { userTempDir } from '../fs/temp-dir.js';
import {
  REQUEST_MAX_BYTES,
  SAME_ENV,
  cliSocketPath,
  processContext,
  ANSWER_MAX_BYTES,
  type CliHandedBack,
  type CliRequest,
  type CliResult,
} from './cli-protocol.js';

const COMMANDS: Readonly<Record<string, CommandModule>> = { append, clear, consume, get, set, update };

/** How long the request line, and then `go`, may take to arrive: a client writes each at once. */
const STEP_TIMEOUT_MS = 10_000;

export interface CliForwarding {
  /**
   * Speaks the exchange on a connection upgraded from `GET /cli`; resolves once it is over.
   * `switched` (the 101 answer) goes out in one write with the first line (ready or the refusal):
   * the client sends the request with its head, and reading them apart woke it once more.
   */
  handle(socket: Socket, head: Buffer, switched: string): Promise<void>;
  /** Commands run and requests refused so far (/health's `cli`: a test tells which side ran one). */
  counts(): { ran: number; refused: number };
}

export function cliForwarding(options: { root: string; version: string; build: string }): CliForwarding {
  // Read once, at start: it is the process's, and reading it per request would race other threads (processContext).
  const own = processContext((file) => readFileSync(file, 'utf8'), readlinkSync);
  const counts = { ran: 0, refused: 0 };
  return {
    counts: () => ({ ...counts }),
    handle: (socket, head, switched) =>
      new Promise<void>((resolve) => {
        let buffer = head.toString('latin1');
        let request: { parsed: CliRequest } | undefined;
        let running = false;
        const timer = setTimeout(() => socket.destroy(), STEP_TIMEOUT_MS);
        const finish = () => {
          clearTimeout(timer);
          resolve();
        };
        socket.on('close', () => {
          if (!running) finish();
        });
        socket.on('error', () => {});
        const onData = () => {
          if (buffer.length > REQUEST_MAX_BYTES) return void socket.destroy();
          const end = buffer.indexOf('\n');
          if (end < 0) return;
          if (request === undefined) {
            const line = Buffer.from(buffer.slice(0, end), 'latin1').toString('utf8');
            buffer = buffer.slice(end + 1);
            const parsed = parseRequest(line);
            const refusal = typeof parsed === 'string' ? parsed : refused(parsed, { ...options, own });
            if (refusal !== undefined) counts.refused++;
            if (refusal !== undefined) return void socket.end(`${switched}${JSON.stringify({ refused: refusal })}\n`);
            request = { parsed: parsed as CliRequest };
            socket.write(`${switched}{"ready":true}\n`);
            timer.refresh();
            return onData();
          }
          if (running) return;
          if (buffer.slice(0, end) !== 'go') return void socket.destroy();
          running = true;
          counts.ran++;
          clearTimeout(timer);
          socket.off('data', onChunk);
          void runForwarded(request.parsed).then((result) => {
            const line = JSON.stringify(result);
            // A client gone by now learns nothing; the command ran all the same, as it would in process.
            if (!socket.destroyed) socket.end(`${line}\n`);
            finish();
          });
        };
        const onChunk = (chunk: Buffer) => {
          buffer += chunk.toString('latin1');
          onData();
        };
        socket.on('data', onChunk);
        onData();
      }),
  };
}

/** The request, checked for shape; a string says why it is refused. */
function parseRequest(line: string): CliRequest | string {
  let value: Partial<CliRequest>;
  try {
    value = JSON.parse(line) as Partial<CliRequest>;
  } catch {
    return 'the request is not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'the request is not an object';
  const { version, build, argv, cwd, env, uid, gid, umask, context } = value;
  if (typeof version !== 'string' || typeof build !== 'string' || typeof cwd !== 'string' || !cwd.startsWith('/'))
    return 'bad request';
  if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string')) return 'bad argv';
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return 'bad env';
  // As process.env has it: own string values only, so `env.toString` is not Object's.
  const own: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, text] of Object.entries(env)) {
    if (typeof text !== 'string') return 'bad env';
    own[name] = text;
  }
  if (![uid, gid, umask].every(Number.isInteger)) return 'bad ids';
  if (typeof context !== 'string') return 'bad context';
  return { version, build, argv, cwd, env: own, uid, gid, umask, context } as CliRequest;
}

/** Why this server must not run the request as the caller's own process would, or undefined. */
function refused(
  request: CliRequest,
  options: { root: string; version: string; build: string; own: { umask: number; context: string } | undefined },
): string | undefined {
  if (request.version !== options.version || request.build !== options.build)
    return `another build (this server is ${serverIdentity(options.version, options.build)})`;
  let i = 0;
  let named: string | undefined;
  while (request.argv[i]?.startsWith('--store')) {
    named = request.argv[i] === '--store' ? request.argv[i + 1] : request.argv[i]?.slice('--store='.length);
    i += request.argv[i] === '--store' ? 2 : 1;
  }
  if (!FORWARDED.has(request.argv[i] ?? '')) return 'not a command this server runs';
  if (request.uid !== (process.getuid?.() ?? -1) || request.gid !== (process.getgid?.() ?? -1))
    return 'another user or group';
  if (request.umask !== options.own?.umask) return 'another umask';
  if (request.context !== options.own.context) return 'another sandbox, namespace or privileges';
  for (const name of SAME_ENV) if (request.env[name] !== process.env[name]) return `another ${name}`;
  if (request.env.BATON_PHASE_SANDBOX === '1') return 'inside the phase sandbox';
  if (defaultRoot(request.cwd, request.env) !== options.root) return 'another project';
  // A shared store would get a pool of its own per command here, each connection held for the
  // pool's idle time: those commands run in process, as before (docs/serve.md).
  try {
    const env = named === undefined ? request.env : { ...request.env, BATON_STORE: named };
    const url = chooseStore(env, () => projectContext({ cwd: request.cwd, env }).config).url;
    if (url !== undefined && url !== '' && !url.startsWith('file:')) return 'a shared store';
  } catch {
    return 'a store or config the command reports itself';
  }
  return undefined;
}

/**
 * What the answer's line holds besides the output's text: its JSON around it, and the 101 and ready
 * before it, which the client counts against ANSWER_MAX_BYTES too (some 150 bytes).
 */
const ANSWER_FRAME_BYTES = 4096;

/** The command, run through the CLI's boundary with the caller's argv, folder and environment. */
export async function runForwarded(request: CliRequest): Promise<CliResult | CliHandedBack> {
  const output: CliResult['output'] = [];
  // The bytes `text` and what was printed before it take in the answer's line (JSON-escaped UTF-8),
  // checked first against 6 a UTF-16 unit (`\u0001`), which is cheap and enough for most.
  const carried = (text: string, measure: (printed: string) => number) =>
    output.reduce((bytes, [, printed]) => bytes + measure(printed) + 8, ANSWER_FRAME_BYTES + measure(text));
  let handedBack = false;
  const io: CommandIo = {
    out: (text) => void output.push([1, text]),
    err: (text) => void output.push([2, text]),
    readStdin: () => {
      // FORWARDED holds no command that reads it (forwarded.ts): reaching this is a bug.
      throw new BatonError('internal', 'internal error: a command baton serve runs read standard input');
    },
    env: request.env,
    cwd: request.cwd,
    answer: {
      fits: (text) =>
        carried(text, (printed) => printed.length * 6) <= ANSWER_MAX_BYTES ||
        carried(text, (printed) => Buffer.byteLength(JSON.stringify(printed))) <= ANSWER_MAX_BYTES,
      handBack: () => {
        handedBack = true;
        throw new BatonError('too_large', 'the output would not fit in the answer of baton serve; run in process');
      },
    },
  };
  try {
    const exit = await runCli(
      request.argv,
      io,
      (name) => {
        const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
        if (!command) throw new BatonError('internal', `internal error: baton serve does not run '${name}'`);
        return command;
      },
      ALL_DEFINITIONS,
    );
    // What it printed is the refusal runCli made of handBack()'s error: the client prints its own.
    return handedBack ? { local: true } : { output, exit };
  } catch (error) {
    // runCli reports every error of the command; this is the boundary's own failure.
    output.push([2, `baton: internal error: ${(error as Error)?.message ?? String(error)}\n`]);
    return { output, exit: 70 };
  }
}

/**
 * Listens on the project's socket in the user's own temp folder (cli-protocol.ts), handing each
 * connection to `http` (whose upgrade handler runs the exchange); resolves a close that removes the
 * socket while it is still this server's. Undefined, and CLI commands run in process, when there is
 * no such folder, the path is too long for a socket, or something other than a socket is there.
 */
export async function listenCli(
  http: { emit(event: 'connection', socket: Socket): boolean },
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<(() => void) | undefined> {
  const dir = userTempDir(env);
  const path = dir && cliSocketPath(dir, root);
  if (!path) return undefined;
  try {
    // A socket left by a server killed outright (one project has one server: its lock).
    if (lstatSync(path).isSocket()) unlinkQuietly(path);
  } catch {
    // None there.
  }
  const server: Server = createServer((socket) => http.emit('connection', socket));
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) return undefined;
  const ino = lstatSync(path).ino;
  return () => {
    server.close();
    try {
      if (lstatSync(path).ino === ino) unlinkQuietly(path);
    } catch {
      // Gone already.
    }
  };
}
