/**
 * A real `baton serve` for a project, and a keep-alive client that asks it as Claude Code's HTTP
 * client does: a Write's PreToolUse decision, the raw answer, and what /health says of kept reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';

export interface Served {
  child: ChildProcess;
  /** SIGTERM, as a user's Ctrl-C: the server closes and exits on its own (coverage is written at exit). */
  stop(): Promise<void>;
  /** The hook's answer: 'deny' or 'allow' for a Write of `file` (by the subagent `agent`, else the session's agent). */
  write(file: string, agent?: string): Promise<'deny' | 'allow'>;
  raw(file: string, agent?: string): Promise<string>;
  /** Any event's answer, for a payload given whole. */
  hook(event: string, payload: object): Promise<string>;
  kept(): Promise<{ hits: number; reads: number; entries: number }>;
}

export async function serve(
  dir: string,
  env: Record<string, string> = {},
  /** `prefix`: the command the server is started through (setpriv, say). */
  options: { sockets?: number; prefix?: string[] } = {},
): Promise<Served> {
  const [command, ...args] = [
    ...(options.prefix ?? []),
    process.execPath,
    BIN,
    'serve',
    '--port',
    '0',
    '--idle-timeout',
    '0',
  ];
  const child = spawn(command, args, {
    cwd: dir,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk).includes('\n') && resolve());
    child.once('exit', (code) => reject(new Error(`baton serve exited ${code}`)));
  });
  const { url, token } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8')) as {
    url: string;
    token: string;
  };
  // Keep-alive, as Claude Code's HTTP client asks: the answer comes as fast as the server can give it.
  // More than one socket when a test asks from several agents at once.
  const agent = new Agent({ keepAlive: true, maxSockets: options.sockets ?? 1 });
  const ask = (path: string, body: string, method = 'POST') =>
    new Promise<string>((resolve, reject) => {
      const req = request(`${url}${path}`, { method, agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(body);
    });
  const raw = (file: string, agent?: string) =>
    ask(
      '/hooks/PreToolUse',
      JSON.stringify({
        session_id: 's',
        ...(agent ? { agent_id: agent } : {}),
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: join(dir, file), content: 'x' },
        cwd: dir,
      }),
    );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    stop: async () => {
      agent.destroy();
      child.kill('SIGTERM');
      await exited;
    },
    raw,
    hook: (event, payload) => ask(`/hooks/${event}`, JSON.stringify(payload)),
    write: async (file, agent) => (/"permissionDecision":"deny"/.test(await raw(file, agent)) ? 'deny' : 'allow'),
    kept: async () =>
      (JSON.parse(await ask('/health', '', 'GET')) as { kept: { hits: number; reads: number; entries: number } }).kept,
  };
}
