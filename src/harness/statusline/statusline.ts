/**
 * `baton statusline`: the host's status JSON in, one or two rows out.
 * The host blanks the line when a run fails, so this never throws and never returns an empty
 * string: after any failure it replays the session's last good output, or at least `[model]`.
 */
import { renderTaskLine } from './task-line.js';
import { renderBoardLine } from './board-line.js';
import { BOARD_KEY } from '../../board/model.js';
import { cachedTask, gitKey, lastGoodName, readCache, taskCacheName, writeCache } from './cache.js';
import { gitInfo } from './git.js';
import { parseStatusInput, type StatusInput } from './input.js';
import { renderLine1 } from './session-line.js';
import { readDocument, readStatuslineConfig, statusRoot, type StatuslineConfig } from './settings.js';
import type { Json } from '../../core/json.js';

export interface StatuslineContext {
  stdin: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Drawn by `baton serve`, which answers hooks meanwhile: git must not block it (git.ts). */
  resident?: boolean;
}

async function renderStatusline(input: StatusInput, context: StatuslineContext): Promise<string> {
  const { env, cwd } = context;
  const color = !env.NO_COLOR;
  const dir = input.currentDir ?? cwd;
  const root = statusRoot(input.projectDir, env, cwd);
  const config = readStatuslineConfig(root, env, cwd);
  const git = await gitInfo(dir, gitKey(input.sessionId, dir), env, {
    timeoutMs: config.gitTimeoutMs,
    resident: context.resident === true,
  });
  const line1 = renderLine1(input, git, { color, showCost: env[config.costEnv] === '1', cwd });
  const line2 = renderTaskLine(await documentOf(config, env, config.task), color);
  const line3 = renderBoardLine(await documentOf(config, env, BOARD_KEY), color);
  return [line1, line2, line3].filter((line) => line !== undefined).join('\n') + '\n';
}

/** A document (the task, the board): this machine's file on the file store, else the shared store's row (cached). */
async function documentOf(config: StatuslineConfig, env: NodeJS.ProcessEnv, path: string): Promise<Json | undefined> {
  if (config.sharedStore === undefined) return readDocument(config, path);
  const name = taskCacheName(config.sharedStore, env, config.root, path);
  const cached = readCache(env, name);
  if (cached?.fresh) return cachedTask(cached.text);
  const { sharedTask } = await import('./shared-task.js');
  return sharedTask(config.sharedStore, config.root, path, env, name, cached?.text);
}

export async function runStatusline(context: StatuslineContext): Promise<string> {
  let input: StatusInput = { model: 'Claude' };
  try {
    input = parseStatusInput(context.stdin);
    const output = await renderStatusline(input, context);
    remember(context.env, input.sessionId, output);
    return output;
  } catch {
    const last = readCache(context.env, lastGoodName(input.sessionId));
    return last && last.text.trim() !== '' ? last.text : `[${input.model}]\n`;
  }
}

/** Writes the last good output only when it changed: a read is cheaper than a temp file and rename. */
function remember(env: NodeJS.ProcessEnv, sessionId: string | undefined, output: string): void {
  const name = lastGoodName(sessionId);
  if (readCache(env, name)?.text !== output) writeCache(env, name, output);
}
