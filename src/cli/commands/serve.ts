/**
 * `baton serve [--port N] [--idle-timeout SECONDS] [--detach] [--allow-writes]`: one resident process
 * per project answering hooks, MCP and the dashboard over HTTP (serve/server.ts). Its first line on stdout is
 * `baton serve: http://127.0.0.1:PORT`; `.baton/serve.json` (0600) says where it is and its
 * token. A second start prints the running server's line and exits 0; a server of another version
 * or build is asked to stop and replaced. `--detach` starts it in the background and returns once it
 * answers (the SessionStart hook starts it on demand this way).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { BatonError, isBatonError } from '../../core/errors.js';
import { acquireLock, type LockHandle } from '../../fs/lock.js';
import { defaultRoot } from '../../project/root.js';
import { startServe } from '../../serve/server.js';
import { markBuildInUse } from '../build-in-use.js';
import { execveProblem } from '../execve-check.js';
import {
  probe,
  readServeFile,
  removeServeFile,
  servePaths,
  serverIdentity,
  writeServeFile,
  type ServeInfo,
} from '../../serve/state.js';
import { intFlag, parseCommand } from '../args.js';
import type { CommandIo } from '../../core/command-io.js';
import { serveDefinition } from '../definitions.js';

declare const BATON_VERSION: string | undefined;
declare const BATON_BUILD: string | undefined;

/** Idle minutes before the server ends: a session that pauses longer falls back to in-process hooks until its next start. */
const DEFAULT_IDLE_SECONDS = 3600;
/** How long a start waits for a concurrent start, or a replaced server, to let go of the lock. */
const LOCK_WAIT_MS = 10_000;
/**
 * How long `--detach` waits for the server to answer: SessionStart starts it with a 5 s hook
 * timeout and must still answer itself. A server slower than this keeps starting in the
 * background, and the hooks before it is up are judged in process.
 */
const DETACH_WAIT_MS = 3000;
/** The server's lock is on this machine; its heartbeat only matters to another host, so it beats rarely (idle CPU). */
const LOCK_STALE_MS = 10 * 60_000;
/**
 * Node flags of a detached server. V8 grows the young generation (up to 16 MB a semi-space) when
 * much of it survives a scavenge, as on PostgreSQL, where every decision waits for a round trip
 * with its objects alive: that server's RSS went 69 -> 95 MB over 7,000 calls of 8 agents at once
 * while its heap after a full GC stayed at 9-10 MB; with 2 MB it stayed at 66-68 MB, p99 and CPU
 * per call within the noise (docs/benchmarks.md). A flag reaches V8 only at the process's start:
 * a detached server is started with it, a foreground one starts itself again with it
 * (reexecWithServerFlags).
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=2'];

/**
 * Whether the user gave Node a semi-space size already: on its command line, or in NODE_OPTIONS,
 * which a process started with SERVER_NODE_FLAGS inherits and whose flag the command line's
 * overrides (a 16 MB semi-space asked there became 2 MB). V8 takes `_` for `-` in a flag's name.
 */
function semiSpaceGiven(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  return [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
    /^--max[-_]semi[-_]space[-_]size(=|$)/.test(arg),
  );
}

export default async function serve(args: string[], cli: CommandIo): Promise<number> {
  const { flags } = parseCommand(serveDefinition(), args);
  const port = intFlag(flags.port, 'port', 0) as number;
  if (port > 65535) throw new BatonError('usage', `--port must be at most 65535, got ${port}`);
  const idleSeconds = intFlag(flags['idle-timeout'], 'idle-timeout', DEFAULT_IDLE_SECONDS) as number;
  const version = typeof BATON_VERSION === 'string' ? BATON_VERSION : 'dev';
  const build = typeof BATON_BUILD === 'string' ? BATON_BUILD : 'dev';
  // What a running server must be to count as this one: the version alone is the same across rebuilds.
  const identity = serverIdentity(version, build);
  const root = defaultRoot(cli.cwd, cli.env);
  // A relative BATON_ROOT or CLAUDE_PROJECT_DIR names a folder from here; the server judges from the
  // root (and a detached one starts there), where the same text would name another folder: a hook
  // judged for a project that is not there is silent, an allow.
  const env = { ...cli.env };
  for (const name of ['BATON_ROOT', 'CLAUDE_PROJECT_DIR'] as const)
    if (env[name]) env[name] = resolve(cli.cwd, env[name]);

  // Before a running server of another build is asked to stop: the new process asks, once. One of
  // this build that answers is said here, without starting Node again (about 40 ms).
  const reexec = flags.detach === true ? undefined : serverReexec(cli);
  if (reexec) {
    const info = readServeFile(root);
    if (info && (await probe(info)) === identity) return report(cli, info);
    reexec();
  }
  const running = await runningServer(root, identity);
  if (running) return report(cli, running);
  if (flags.detach === true) return detach(args, root, identity, { ...cli, env });

  // SIGINT or SIGTERM are caught from here on: Node's default ends the process at once, and one that
  // arrived before the server listened left the lock (taken over later as a dead holder's) and,
  // once it listened, serve.json naming a server that is gone. A stop asked for before the server
  // is up is kept and honoured once it is, before anything announces it.
  let stopAsked = false;
  let stop = () => void (stopAsked = true);
  const onSignal = () => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    let lock: LockHandle;
    try {
      lock = await acquireLock(servePaths(root).lock, {
        timeoutMs: LOCK_WAIT_MS,
        staleMs: LOCK_STALE_MS,
        label: 'baton serve',
      });
    } catch (error) {
      // Another start won the race: it is the server.
      const winner =
        isBatonError(error) && error.code === 'lock_timeout' ? await runningServer(root, identity) : undefined;
      if (winner) return report(cli, winner);
      throw error;
    }
    const unmark = markBuildInUse();
    try {
      if (stopAsked) return 0;
      const served = await startServe({
        cwd: root,
        env,
        script: cli.script,
        port,
        idleMs: idleSeconds * 1000,
        version,
        build,
        allowWrites: flags['allow-writes'] === true,
        goalHooks: async () => (await import('../../goal/hooks/goal-handlers.js')).runGoalHook,
      }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES')
          throw new BatonError(
            'usage',
            `cannot listen on 127.0.0.1:${port} (${error.code}); choose another --port, or 0 for a free one`,
          );
        throw error;
      });
      if (stopAsked) {
        await served.close();
        return 0;
      }
      // Listening before serve.json and the line announce it: whoever reads either may stop it at
      // once.
      stop = () => void served.close();
      try {
        writeServeFile(root, { url: served.url, pid: process.pid, token: served.token, version, build, ui: served.ui });
        cli.out(`baton serve: ${served.url}\nbaton serve: dashboard ${served.ui}\n`);
      } catch (error) {
        // Unannounced, no client can find it: a server left listening would hold the lock, and so the
        // project, for its idle hour while every hook ran in process. It ends here, with the reason.
        await served.close();
        removeServeFile(root, served.token);
        if (!isBatonError(error)) throw error;
        // The cause's own code, so its documented exit holds (a .baton/ linked outside is 4, not 8).
        throw new BatonError(error.code, `stopped, it could not announce itself: ${error.message}`, { cause: error });
      }
      await served.stopped;
      removeServeFile(root, served.token);
    } finally {
      unmark();
      lock.release();
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}

/**
 * The server serve.json names, when it answers with its token. One of another identity (version or
 * build) is asked to stop (a CLI or hook of a new install or a rebuild replaces it), and undefined
 * is returned.
 */
async function runningServer(root: string, identity: string): Promise<ServeInfo | undefined> {
  const info = readServeFile(root);
  if (!info) return undefined;
  const seen = await probe(info);
  if (seen === undefined) return undefined;
  if (seen === identity) return info;
  await probe(info, '/shutdown', 'POST');
  return undefined;
}

function report(cli: CommandIo, info: ServeInfo, already = true): number {
  cli.out(`baton serve: ${info.url}\n${info.ui ? `baton serve: dashboard ${info.ui}\n` : ''}`);
  if (already) cli.err(`baton serve: already running for this project (pid ${info.pid})\n`);
  return 0;
}

/**
 * A foreground server becomes a new Node process with SERVER_NODE_FLAGS, in place: execve keeps the
 * pid, the terminal, stdio and the process group, so the first line, serve.json's pid, Ctrl-C and
 * the exit code are the ones of the process the user started, and no second process waits beside
 * it. Set from inside the running process the flag has no effect (docs/serve.md). Node 20 has no
 * process.execve: there the server keeps Node's default young generation, since a parent waiting
 * on a child costs ~7 MB of its own and a server pid other than the one started (a `kill -9` of it
 * would leave the server running); measured in docs/benchmarks.md. Only the CLI's own process is
 * replaced, and not when the Node flag is given already (by the user, or by the start before).
 * Undefined where there is nothing to do; the function returned does it.
 */
function serverReexec(cli: CommandIo): (() => void) | undefined {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== 'function' || !cli.script || cli.script !== process.argv[1] || cli.env !== process.env) return;
  if (semiSpaceGiven(process.env, process.execArgv)) return;
  const argv = [process.execPath, ...process.execArgv, ...SERVER_NODE_FLAGS, ...process.argv.slice(1)];
  return () => {
    // A failed execve aborts the process (SIGABRT, nothing to catch): what would fail it is looked
    // for first, and then the server runs as it is, saying why.
    const problem = execveProblem(process.execPath, argv, process.env);
    if (problem === undefined) execve.call(process, process.execPath, argv, process.env);
    cli.err(
      `baton serve: not started again with ${SERVER_NODE_FLAGS.join(' ')} (${problem}); it serves with Node's default young generation\n`,
    );
  };
}

/** Starts `baton serve` on its own (new session, no stdio) and waits until it answers. */
async function detach(args: string[], root: string, identity: string, cli: CommandIo): Promise<number> {
  if (!cli.script) throw new BatonError('usage', 'baton serve --detach runs from the baton CLI only');
  // The child inherits NODE_OPTIONS (cli.env), not this process's command line.
  const flags = semiSpaceGiven(cli.env, []) ? [] : SERVER_NODE_FLAGS;
  const argv = [...flags, cli.script, 'serve', ...args.filter((arg) => arg !== '--detach')];
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: cli.env,
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  for (let waited = 0; waited < DETACH_WAIT_MS; waited += 25) {
    const info = readServeFile(root);
    if (info && (await probe(info)) === identity) return report(cli, info, info.pid !== child.pid);
    if (gone !== undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new BatonError(
    'io',
    gone === undefined
      ? `baton serve did not answer within ${DETACH_WAIT_MS / 1000} s; it goes on starting in the background (pid ${child.pid})`
      : `baton serve did not start (it exited ${gone}); run 'baton serve' in the project to see why`,
  );
}
