/**
 * CLI commands answered by a running `baton serve` (docs/serve.md, "CLI commands through the
 * server"): what the client (cli/serve-client.ts) and the server (serve/cli-forward.ts) agree on.
 * The client imports this module: it stays free of anything but node:path.
 *
 * Where: a Unix socket in this user's own temp folder (fs/temp-dir.ts: 0700, owned by the user),
 * named by the project's root. Only this user can make a socket there, so a serve.json planted in
 * the project cannot send a command to a server of someone else's choosing, and no web page can
 * reach it; the hook side's token and Host checks still hold on every request. (Not the hook side's
 * signed answers: node:crypto and node:net, which a tag and TCP need, cost a CLI process ~8 ms of
 * the ~9 ms it may spend over a bare Node start; see docs/benchmarks.md.)
 *
 * The exchange, on that connection upgraded from `GET /cli`:
 *   client: the upgrade's head and the request, one line of JSON (version, build, argv, cwd, env,
 *           uid, gid, umask, context), in one write;
 *   server: the 101 answer and `{"ready":true}` (it will run exactly this request) or
 *           `{"refused":WHY}` (run it in process), in one write once the request is in (a client
 *           reads them apart as well);
 *   client: `go` (from here the command is the server's: the client never runs it again);
 *   server: the result, one line of JSON (what the command printed, in order, and its exit code),
 *           or `{"local":true}`: the command handed itself back before it changed anything (a
 *           `consume` whose value would not fit in the answer), and the client runs it in process.
 * "Accepted" is `go` written: before it the server runs nothing.
 */
import { join } from 'node:path';
import { fnv1a32 } from '../core/hash.js';

/** The upgrade's path and protocol name. */
export const CLI_PATH = '/cli';
export const CLI_PROTOCOL = 'baton-cli';

/**
 * A request's line: the CLI's argv, environment and working folder bound an argv (ARG_MAX is 2 MiB
 * on Linux, the environment counted in it), so a longer one is not a CLI's.
 */
export const REQUEST_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What a client reads of the server's answer: a command's output, JSON-escaped on one line. Twice
 * the 32 MiB the CLI reads as input, and four times the largest document a write may make
 * (core/limits.ts maxDocumentBytes), so a `consume` of a whole document fits; a server (or
 * something at its socket) that sends more is not believed: a `get` runs in process, and a write
 * exits with its outcome unknown rather than holding the client's memory without end.
 */
export const ANSWER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Variables the server's own process reads on a forwarded command's path, beside the caller's: the
 * lock's host id (fs/lock.ts localHost(), read once per process). The server answers only a caller
 * whose values are its own, so reading either gives the same.
 */
export const SAME_ENV = ['BATON_HOST_ID'] as const;

export interface CliRequest {
  version: string;
  /** The client's build (scripts/build-id.mjs): one version may be built from other sources. */
  build: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The caller's process-wide settings a write depends on; the server answers only its own. */
  uid: number;
  gid: number;
  umask: number;
  /** What else of the process decides what a command may touch (processContext()). */
  context: string;
}

export interface CliResult {
  /** What the command printed, in order: [1, text] for stdout, [2, text] for stderr. */
  output: [1 | 2, string][];
  exit: number;
}

/** The server ran nothing of the command: the client runs it in process (the exchange above). */
export interface CliHandedBack {
  local: true;
}

/** sun_path holds 108 bytes with its NUL: a longer path cannot be a socket's, and the CLI runs in process. */
const SOCKET_PATH_MAX = 107;

/**
 * The socket of the server for `root`, in `userDir` (the user's own temp folder, made and checked
 * by the caller); undefined when the path is too long for a socket.
 */
export function cliSocketPath(userDir: string, root: string): string | undefined {
  const path = join(userDir, `serve-${fnv1a32(root)}.sock`);
  return Buffer.byteLength(path) <= SOCKET_PATH_MAX ? path : undefined;
}

/**
 * This process's umask and the rest of what decides which files a command may touch, from /proc
 * (undefined where it cannot be read, and the CLI runs in process): its supplementary groups, its
 * effective capabilities, no_new_privs and seccomp (a sandbox such as Landlock or bubblewrap sets
 * them), its mount and user namespaces and its root. A client in a sandbox differs from the server
 * outside it, which would otherwise write where the sandbox forbids. Not process.umask(): with no
 * argument it sets the mask to 0 and back, a window in which a file another thread creates is made
 * world-writable.
 */
export function processContext(
  read: (file: string) => string | undefined,
  link: (path: string) => string,
): { umask: number; context: string } | undefined {
  try {
    const status = read('/proc/self/status') ?? '';
    const field = (name: string) => new RegExp(`^${name}:[ \t]*(.*)$`, 'm').exec(status)?.[1];
    const umask = field('Umask');
    if (umask === undefined || !/^[0-7]+$/.test(umask)) return undefined;
    const fields = ['Groups', 'CapEff', 'NoNewPrivs', 'Seccomp'].map((name) => field(name));
    const links = ['/proc/self/ns/mnt', '/proc/self/ns/user', '/proc/self/root'].map((path) => link(path));
    return { umask: parseInt(umask, 8), context: JSON.stringify([...fields, ...links]) };
  } catch {
    return undefined;
  }
}
