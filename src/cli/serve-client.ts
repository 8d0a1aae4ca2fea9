/**
 * The client of CLI commands answered by a running `baton serve` (serve/cli-protocol.ts has the
 * exchange; docs/serve.md, "CLI commands through the server"). It is part of the CLI's entry
 * (main.ts), which calls it only when the command is one a server answers and the project has a
 * serve.json: a CLI call with no server pays only the pre-parse of this module, and loads nothing
 * for it.
 *
 * forward() resolves undefined to mean "run it in process", and does so for anything short of the
 * project's server taking the command: no serve.json, another version or build, no socket in this user's
 * own folder, a refusal, a connection error or a timeout before `go`. Once `go` is written the
 * command is the server's: a lost answer is reported (exit 8, the outcome unknown) and the command
 * is not run again, except `get`, which writes nothing, and a command the server hands back before
 * it changed anything (`{"local":true}`: a `consume` whose value would not fit in the answer).
 *
 * The connection is libuv's pipe handle itself (process.binding('pipe_wrap')), not node:net: a CLI
 * process pays for every module it loads, and node:net with the stream machinery under it costs
 * ~5 ms of CPU, half of all a forwarded command may spend over a bare Node start (measured,
 * docs/benchmarks.md). Where that binding is not as expected (another Node), node:net does it.
 */
import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, constants } from 'node:fs';
import { join } from 'node:path';
import { writeFd } from './fd-write.js';
import { nodeBinding } from '../fs/node-binding.js';
import { READ_ONLY } from '../serve/forwarded.js';
import {
  ANSWER_MAX_BYTES,
  CLI_PATH,
  CLI_PROTOCOL,
  cliSocketPath,
  processContext,
  type CliHandedBack,
  type CliRequest,
  type CliResult,
} from '../serve/cli-protocol.js';

declare const BATON_VERSION: string | undefined;
declare const BATON_BUILD: string | undefined;

/** An answer lost after the server took the command: baton's `io` code (core/errors.ts EXIT.io). */
const UNKNOWN_OUTCOME_EXIT = 8;
/** Until the server says ready: past it the command runs in process (the server has run nothing). */
const READY_TIMEOUT_MS = 5000;
/** serve.json and /proc/self/status are small. */
const SMALL_MAX_BYTES = 64 * 1024;

export async function forward(serveFile: string, root: string, argv: string[]): Promise<number | undefined> {
  const version = typeof BATON_VERSION === 'string' ? BATON_VERSION : 'dev';
  const build = typeof BATON_BUILD === 'string' ? BATON_BUILD : 'dev';
  const server = serverIn(serveFile, version, build);
  const socket = server && socketFor(root, process.env);
  const own = socket ? processContext(readSmall, readlinkSync) : undefined;
  if (!server || !socket || !own) return undefined;
  let request: string;
  try {
    request = JSON.stringify({
      version,
      build,
      argv,
      cwd: process.cwd(),
      env: process.env as Record<string, string>,
      uid: process.getuid?.() ?? -1,
      gid: process.getgid?.() ?? -1,
      umask: own.umask,
      context: own.context,
    } satisfies CliRequest);
  } catch {
    return undefined;
  }
  const head =
    `GET ${CLI_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\n` +
    `Connection: Upgrade\r\nUpgrade: ${CLI_PROTOCOL}\r\n\r\n${request}\n`;
  const answer = await exchange(socket, head);
  if (answer.kind === 'local') return undefined;
  const command = commandOf(argv);
  if (answer.kind === 'lost') {
    if (READ_ONLY.has(command)) return undefined;
    writeFd(
      2,
      `baton ${command}: baton serve (pid ${server.pid}) took this command, but its answer ${answer.why}; whether it was applied is unknown: look at the document's history (baton history FILE) before running it again\n`,
    );
    return UNKNOWN_OUTCOME_EXIT;
  }
  if ('local' in answer.result) return undefined;
  for (const [fd, text] of answer.result.output) writeFd(fd, text);
  return answer.result.exit;
}

interface Server {
  port: number;
  pid: number;
  token: string;
}

/** The server serve.json names, when it is of this version and build (another build's code would run the command). */
function serverIn(file: string, version: string, build: string): Server | undefined {
  try {
    const info = JSON.parse(readSmall(file) ?? '') as Record<string, unknown>;
    const port = /^http:\/\/127\.0\.0\.1:(\d{1,5})$/.exec(String(info.url))?.[1];
    if (port === undefined || info.version !== version || info.build !== build) return undefined;
    if (typeof info.token !== 'string' || !/^[\w-]{16,256}$/.test(info.token) || typeof info.pid !== 'number')
      return undefined;
    return { port: Number(port), pid: info.pid, token: info.token };
  } catch {
    return undefined;
  }
}

/**
 * The project's socket in this user's own temp folder, as fs/temp-dir.ts makes it (not imported:
 * it loads node:os), when that folder is a real one of this user that no one else may enter.
 */
function socketFor(root: string, env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  // os.tmpdir() on POSIX, without loading node:os.
  let base = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  if (base.length > 1 && base.endsWith('/')) base = base.slice(0, -1);
  const dir = join(base, `baton-${uid}`);
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
  } catch {
    return undefined;
  }
  return cliSocketPath(dir, root);
}

/**
 * A small regular file's text, read to its end (/proc files say size 0); undefined when it is
 * missing, not regular (a FIFO is never waited on) or too large.
 */
function readSmall(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.allocUnsafe(SMALL_MAX_BYTES + 1);
    let read = 0;
    for (let n = 1; n > 0 && read <= SMALL_MAX_BYTES; read += n)
      n = readSync(fd, buffer, read, buffer.length - read, null);
    return read > SMALL_MAX_BYTES ? undefined : buffer.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The command word past the global options, as main.ts and run-cli.ts read it. */
function commandOf(argv: string[]): string {
  let i = 0;
  while (argv[i]?.startsWith('--store')) i += argv[i] === '--store' ? 2 : 1;
  return argv[i] ?? '';
}

type Answer = { kind: 'local' } | { kind: 'lost'; why: string } | { kind: 'done'; result: CliResult | CliHandedBack };

/** A connection as the exchange uses it: bytes in as they come, a write, the end. */
interface Connection {
  /** False when the write was refused at once (nothing of it was sent). */
  write(text: string): boolean;
  close(): void;
}

interface Events {
  /** Bytes as latin1 text (one character a byte: a character cut between reads stays whole); lines are decoded by utf8(). */
  data(text: string): void;
  /** The connection failed or ended; `why` for the message. */
  end(why: string): void;
}

/** One exchange with the server: the request, its ready, `go`, the result. */
function exchange(path: string, head: string): Promise<Answer> {
  return new Promise((resolve) => {
    let accepted = false;
    let settled = false;
    /** The answer up to ready; after it, the result's line as read (each read its piece). */
    let buffer = '';
    const parts: string[] = [];
    let received = 0;
    let upgraded = false;
    let connection: Connection | undefined;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      connection?.close();
      resolve(answer);
    };
    const give = (why: string): void => settle(accepted ? { kind: 'lost', why } : { kind: 'local' });
    // Past `go` only the command's own budgets bound the wait (the lock's, jq's): none is set here.
    readyTimeout(() => accepted || give('did not come'));
    const events: Events = {
      end: give,
      data: (text) => {
        if (settled) return;
        received += text.length;
        if (received > ANSWER_MAX_BYTES)
          return give(
            `was past ${ANSWER_MAX_BYTES / 1024 / 1024} MiB, more than a command handed to the server may print (with the server stopped, such a command runs in process)`,
          );
        let rest = text;
        if (!accepted) {
          buffer += text;
          // The 101 and ready are some 100 bytes: more before them is no server's answer.
          if (buffer.length > SMALL_MAX_BYTES) return give('was not one');
          if (!upgraded) {
            const end = buffer.indexOf('\r\n\r\n');
            if (end < 0) return;
            if (!buffer.startsWith('HTTP/1.1 101 ')) return give('was a refusal');
            upgraded = true;
            buffer = buffer.slice(end + 4);
          }
          const line = buffer.indexOf('\n');
          if (line < 0) return;
          const ready = parse(utf8(buffer.slice(0, line))) as { ready?: unknown } | undefined;
          rest = buffer.slice(line + 1);
          if (ready?.ready !== true) return give('was a refusal');
          if (!connection?.write('go\n')) return give('was not sent');
          // Written (queued in the kernel or by libuv): the server may have it, so it is the server's.
          accepted = true;
        }
        // The result's line in pieces, joined once whole: one string grown at each read and searched
        // whole is flattened at each read, quadratic in the answer (over a minute for 64 MiB).
        const end = rest.indexOf('\n');
        if (end < 0) return void parts.push(rest);
        parts.push(rest.slice(0, end));
        const result = parse(utf8(parts.join(''))) as CliResult | CliHandedBack | undefined;
        if (!validResult(result)) return give('was not one');
        settle({ kind: 'done', result });
      },
    };
    try {
      connection = rawPipe(path, events) ?? netPipe(path, events);
      if (!connection.write(head)) give('was not sent');
    } catch {
      give('was not sent');
    }
  });
}

/**
 * Calls `late` once READY_TIMEOUT_MS have passed while the process still runs; it never keeps the
 * process alive (the connection does). Through Atomics.waitAsync on a word no one changes, whose
 * timeout V8 posts to Node's platform: a first setTimeout (and its clearTimeout) cost a CLI
 * process ~0.5 ms of CPU, the waitAsync ~0.05 ms (measured, docs/benchmarks.md). setTimeout, unref'd,
 * where waitAsync is missing or answers at once.
 */
function readyTimeout(late: () => void): void {
  const wait = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
  const waited =
    typeof wait === 'function' ? wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, READY_TIMEOUT_MS) : undefined;
  if (waited?.async) void waited.value.then(late);
  else setTimeout(late, READY_TIMEOUT_MS).unref();
}

/** ES2024's Atomics.waitAsync (Node 16 and later), beyond this project's TypeScript lib. */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeout: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

/** The pipe through libuv's handle (see the module's comment), or undefined where it is not as expected. */
function rawPipe(path: string, events: Events): Connection | undefined {
  const pipeWrap = nodeBinding<RawPipeWrap>('pipe_wrap');
  const streamWrap = nodeBinding<RawStreamWrap>('stream_wrap');
  if (!pipeWrap || !streamWrap) return undefined;
  const { Pipe, PipeConnectWrap, constants: pipeConstants } = pipeWrap;
  const { WriteWrap, streamBaseState: state, kReadBytesOrError, kArrayBufferOffset } = streamWrap;
  if (
    typeof Pipe !== 'function' ||
    typeof PipeConnectWrap !== 'function' ||
    typeof WriteWrap !== 'function' ||
    typeof pipeConstants?.SOCKET !== 'number' ||
    !(state instanceof Int32Array) ||
    typeof kReadBytesOrError !== 'number' ||
    typeof kArrayBufferOffset !== 'number'
  )
    return undefined;
  const handle = new Pipe(pipeConstants.SOCKET);
  if (typeof handle.connect !== 'function' || typeof handle.writeUtf8String !== 'function') return undefined;
  let open = true;
  let connected = false;
  const pending: string[] = [];
  const send = (text: string): boolean => {
    const req = new WriteWrap();
    req.handle = handle;
    req.oncomplete = (status: number) => {
      if (status < 0) events.end(`was lost (write error ${status})`);
    };
    req.async = false;
    return handle.writeUtf8String(req, text) === 0;
  };
  handle.onread = (arrayBuffer: ArrayBuffer | undefined) => {
    const nread = state[kReadBytesOrError] ?? -1;
    if (nread > 0 && arrayBuffer)
      return events.data(Buffer.from(arrayBuffer, state[kArrayBufferOffset], nread).toString('latin1'));
    if (nread < 0) events.end('was lost (the connection closed)');
  };
  const req = new PipeConnectWrap();
  req.oncomplete = (status: number) => {
    if (status < 0 || !open) return events.end(`was not sent (connect ${status})`);
    connected = true;
    if (handle.readStart() !== 0) return events.end('was not sent (read)');
    for (const text of pending.splice(0)) if (!send(text)) return events.end('was not sent');
  };
  if (handle.connect(req, path) !== 0) {
    handle.close();
    return undefined;
  }
  return {
    // Before the connection completes, the text waits (only the request: `go` follows a read).
    write: (text) => (connected ? send(text) : (pending.push(text), true)),
    close: () => {
      if (!open) return;
      open = false;
      handle.close();
    },
  };
}

/** The same through node:net, for a Node whose pipe binding differs. */
function netPipe(path: string, events: Events): Connection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only on this path
  const { connect } = require('node:net') as typeof import('node:net');
  const socket = connect(path);
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => events.data(text));
  socket.on('error', (error: NodeJS.ErrnoException) => events.end(`was lost (${error.code ?? error.message})`));
  socket.on('close', () => events.end('was lost (the connection closed)'));
  return {
    write: (text) => (socket.write(text), !socket.destroyed),
    close: () => socket.destroy(),
  };
}

interface RawHandle {
  connect(req: object, path: string): number;
  readStart(): number;
  writeUtf8String(req: object, text: string): number;
  close(): void;
  onread: (arrayBuffer: ArrayBuffer | undefined) => void;
}

interface RawPipeWrap {
  Pipe: new (type: number) => RawHandle;
  PipeConnectWrap: new () => { oncomplete: (status: number) => void };
  constants: { SOCKET: number };
}

interface RawStreamWrap {
  WriteWrap: new () => { handle: RawHandle; oncomplete: (status: number) => void; async: boolean };
  streamBaseState: Int32Array;
  kReadBytesOrError: number;
  kArrayBufferOffset: number;
}

/** A line's bytes (latin1 text, as read) as the UTF-8 they are. Not TextDecoder: loading it costs a CLI process ~1 ms. */
function utf8(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function validResult(result: CliResult | CliHandedBack | undefined): result is CliResult | CliHandedBack {
  if (typeof result !== 'object' || result === null) return false;
  if ('local' in result) return result.local === true;
  return (
    Number.isInteger(result.exit) &&
    Array.isArray(result.output) &&
    result.output.every(
      (entry) => Array.isArray(entry) && (entry[0] === 1 || entry[0] === 2) && typeof entry[1] === 'string',
    )
  );
}
