/**
 * The work board's side of the agent events. SubagentStart tells a subagent its name on the board;
 * SubagentStop gives back what that subagent held, SessionEnd what its session held, so a claim
 * ends when its agent ends rather than when its lease runs out. The board's history records why
 * (the writer of the commit names the event and the agent). Nothing is read where there is no board.
 */
import { absent } from '../../../fs/absent.js';
import { join } from 'node:path';
import type { Board, WorkBoard } from '../../../board/board.js';
import { BOARD_KEY } from '../../../board/model.js';
import { keepingReads } from '../../../fs/kept-reads.js';
import { FileStore } from '../../../stores/index.js';
import type { Json } from '../../../core/json.js';
import { boardName } from '../../policy/board-identity.js';
import { HOOK_STORE_BUDGET_MS } from '../shared-documents.js';
import type { HookOutcome } from '../types.js';
import { hookLockTimeoutMs, type HandlerContext } from './handler-context.js';

/**
 * The project's board, or undefined when there is none: on the embedded store one stat of its
 * file decides, so a project without a board loads nothing; on a shared store (the hook fetched
 * documents through it) only the store knows.
 */
export async function projectBoard(context: HandlerContext): Promise<Board | undefined> {
  const { root, env } = context;
  if (context.documents === undefined && absent(join(root, BOARD_KEY))) return undefined;
  const { Board } = await import('../../../board/board.js');
  return new Board({
    cwd: root,
    env: { ...env, BATON_ROOT: root },
    lockTimeoutMs: hookLockTimeoutMs(env),
    connectTimeoutMs: HOOK_STORE_BUDGET_MS,
  });
}

/** The committed board, undefined when there is none; a board that cannot be read throws. */
export async function readProjectBoard(context: HandlerContext): Promise<WorkBoard | undefined> {
  if (context.board) {
    // Kept by the server with the revision it was read at, checked before this decision: no new connection per call.
    const { noteBoardOnStore } = await import('../../../board/store-marker.js');
    noteBoardOnStore(context.root, context.board.doc !== undefined);
    if (context.board.doc === undefined) return undefined;
    const { boardOf } = await import('../../../board/board.js');
    return boardOf(context.board.doc as Json, BOARD_KEY);
  }
  if (context.documents === undefined && keepingReads()) {
    const kept = await keptFileBoard(context.root);
    if (kept !== READ) return kept;
  }
  return (await projectBoard(context))?.read();
}

/**
 * In a resident server (`baton serve`), the file store's board as every other file a decision
 * reads: kept in memory while one stat shows it unchanged (FileStore.readKept), so a PreToolUse
 * neither opens nor parses it. Anything the kept read cannot vouch for (a file that is not a
 * board, a path the store refuses) is read through the engine, whose error says why.
 */
async function keptFileBoard(root: string): Promise<WorkBoard | undefined | typeof READ> {
  const { boardFromDoc } = await import('../../../board/board.js');
  try {
    return new FileStore(root).readKept(BOARD_KEY, boardFromDoc);
  } catch {
    return READ;
  }
}

const READ = Symbol('read through the engine');

export async function subagentStart(context: HandlerContext): Promise<HookOutcome> {
  const { input } = context;
  if (input.agentId === '' || (await readProjectBoard(context)) === undefined) return { log: [] };
  const name = boardName(input);
  return {
    context: [
      `On this project's work board (baton work) you are agent ${name}.`,
      `baton records you as ${name} in every 'baton work' call you run: leave out --as (another name is refused).`,
      "Claim with 'baton work claim' (prints the item's id; exit 1: nothing ready), finish with 'baton work done ID'.",
      "While you hold an item, its paths are reserved to you; other agents' reserved paths are read-only to you. Your claims end when you stop.",
    ].join('\n'),
    log: [],
  };
}

/** The wave barrier first (it counts the agent's result), then the agent's claims end. */
export async function subagentStop(context: HandlerContext): Promise<HookOutcome> {
  const { waveBarrier } = await import('../../task/wave-barrier.js');
  const outcome = await waveBarrier(context);
  const { input } = context;
  if (input.agentId === '') return outcome;
  outcome.log.push(...(await endClaims(context, `SubagentStop: agent ${input.agentId} ended`, input.agentId)));
  return outcome;
}

export async function sessionEnd(context: HandlerContext): Promise<HookOutcome> {
  const { input } = context;
  if (input.sessionId === '') return { log: [] };
  const why = `SessionEnd: session ${input.sessionId} ended${typeof input.raw.reason === 'string' ? ` (${input.raw.reason.slice(0, 100)})` : ''}`;
  return { log: await endClaims(context, why) };
}

async function endClaims(context: HandlerContext, why: string, agent?: string): Promise<string[]> {
  const board = await projectBoard(context);
  if (!board) return [];
  const released = await board.releaseEnded(why, context.input.sessionId, agent);
  return released.length > 0 ? [`[board] ${why}: gave back ${released.join(', ')}`] : [];
}
