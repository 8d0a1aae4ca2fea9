/** `baton serve` as a real process, for the serve tests: started, its first lines read. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';

export interface Server {
  /** The first line: `baton serve: http://127.0.0.1:PORT`. */
  url: string;
  /** The second line's URL: the dashboard's login. */
  ui: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM, as a user's Ctrl-C, and its exit code: the server closes on its own path (coverage is written at exit). */
  stop(): Promise<number | null>;
  stderr(): string;
}

export function startServe(
  cwd: string,
  args: string[] = ['--port', '0'],
  env: Record<string, string> = {},
): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const lines = out.split('\n');
      if (lines.length > 2)
        resolve({
          url: lines[0]!,
          ui: lines[1]!.replace(/^baton serve: dashboard /, ''),
          child,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
          stderr: () => err,
        });
    });
    void exited.then((code) => reject(new Error(`baton serve exited ${code}: ${err}`)));
  });
}

export interface ServeFile {
  url: string;
  pid: number;
  token: string;
  version: string;
  ui: string;
}

export function serveFile(dir: string): ServeFile {
  return JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8')) as ServeFile;
}
