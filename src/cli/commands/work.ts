/**
 * `baton work add|ready|claim|heartbeat|done|block|release|reopen|wait|show`: the work board's
 * face. Every rule is the board's (src/board/); this only parses and prints.
 */
import { BatonError, EXIT } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { CommandIo } from '../../core/command-io.js';
import { Board, type BarrierState, type WaitMode } from '../../board/board.js';
import { item, liveClaim, type WorkBoard } from '../../board/model.js';
import { intFlag, parseCommand, usageError, type ParsedFor } from '../args.js';
import { errorUsage, workDefinition } from '../definitions.js';

const DEF = workDefinition();
const SHORT = errorUsage(DEF);
type Parsed = ParsedFor<typeof DEF>;
const VERBS = ['add', 'ready', 'claim', 'heartbeat', 'done', 'block', 'release', 'reopen', 'wait', 'show'];

export default async function work(argv: string[], cli: CommandIo): Promise<number> {
  const parsed = parseCommand(DEF, argv);
  const [verb, ...ids] = parsed.positionals as [string, ...string[]];
  if (!VERBS.includes(verb)) throw usageError(`unknown work command '${verb}'`, SHORT);
  const { flags } = parsed;
  const bound = boundAgent(flags, cli.env);
  const board = new Board({ cwd: cli.cwd, env: cli.env, ...(bound ? { writer: bound } : {}) });
  const json = flags.json === true;
  if (verb === 'add') {
    const title = flags.title;
    if (!title) throw usageError('work add needs --title T', SHORT);
    await board.add({
      id: one(ids, verb),
      title,
      after: flags.after ?? [],
      paths: flags.paths ?? [],
      fields: fields(flags.field ?? []),
    });
    return EXIT.ok;
  }
  if (verb === 'ready') {
    const ready = await board.ready();
    cli.out(json ? `${JSON.stringify(ready)}\n` : ready.map((id) => `${id}\n`).join(''));
    return EXIT.ok;
  }
  if (verb === 'claim') {
    if (ids.length > 1) throw usageError(`unexpected argument '${ids[1]}'`, SHORT);
    const lease = intFlag(flags.lease, 'lease');
    const session = cli.env.BATON_SESSION || undefined;
    const outcome = await board.claim(ids[0], agent(bound, verb), lease, session);
    if (outcome.claimed === undefined) throw new BatonError('conflict', `nothing claimed: ${outcome.why}`);
    cli.out(json ? `${JSON.stringify({ id: outcome.claimed, ...outcome.claim })}\n` : `${outcome.claimed}\n`);
    return EXIT.ok;
  }
  if (verb === 'wait') return await wait(board, ids, parsed, cli);
  if (verb === 'show') return await show(board, ids, json, cli);
  const id = one(ids, verb);
  if (verb === 'reopen') {
    await board.reopen(id, bound);
    return EXIT.ok;
  }
  const who = agent(bound, verb);
  const token = intFlag(flags.token, 'token');
  if (verb === 'heartbeat') {
    const claim = await board.heartbeat(id, who, token);
    cli.out(json ? `${JSON.stringify({ id, ...claim })}\n` : `${id} held by ${who} until ${claim.expires}\n`);
  } else if (verb === 'done') await board.done(id, who, token);
  else if (verb === 'release') await board.release(id, who, token);
  else {
    const reason = flags.reason;
    if (!reason) throw usageError('work block needs --reason TEXT', SHORT);
    await board.block(id, who, reason, token);
  }
  return EXIT.ok;
}

async function wait(board: Board, ids: string[], parsed: Parsed, cli: CommandIo): Promise<number> {
  const { flags } = parsed;
  const modes = [flags.all === true, flags.any === true, flags['at-least'] !== undefined].filter(Boolean).length;
  if (modes !== 1) throw usageError('work wait needs one of --all, --any, --at-least N', SHORT);
  const timeout = flags.timeout;
  if (timeout === undefined || !/^\d+(\.\d+)?$/.test(timeout))
    throw usageError('work wait needs --timeout SECONDS (a number)', SHORT);
  const mode: WaitMode =
    flags.all === true
      ? { all: true }
      : flags.any === true
        ? { any: true }
        : { atLeast: intFlag(flags['at-least'], 'at-least') as number };
  const state = await board.wait(ids, mode, Number(timeout));
  cli.out(flags.json === true ? `${JSON.stringify(state)}\n` : barrierText(state));
  return state.met ? EXIT.ok : EXIT.refused;
}

function barrierText(state: BarrierState): string {
  const head = `${state.met ? 'met' : 'timed out'}: ${state.done.length} done of ${state.done.length + state.pending.length} (${state.need} needed)`;
  const lines = state.pending.map(
    (item) =>
      `  ${item.id}: ${item.holder ? `held by ${item.holder} until ${item.expires}` : item.status}${item.waits_for ? `, waits for ${item.waits_for.join(', ')}` : ''}`,
  );
  return `${[head, ...lines].join('\n')}\n`;
}

async function show(board: Board, ids: string[], json: boolean, cli: CommandIo): Promise<number> {
  const current = await board.current();
  if (ids.length > 1) throw usageError(`unexpected argument '${ids[1]}'`, SHORT);
  if (ids[0] !== undefined) {
    const entry = item(current, ids[0]);
    cli.out(json ? `${JSON.stringify(entry, null, 2)}\n` : itemLines(current, ids[0], new Date()).join('\n') + '\n');
    return EXIT.ok;
  }
  if (json) cli.out(`${JSON.stringify(current, null, 2)}\n`);
  else {
    const now = new Date();
    for (const id of Object.keys(current.items)) cli.out(`${itemLines(current, id, now)[0]}\n`);
  }
  return EXIT.ok;
}

function itemLines(board: WorkBoard, id: string, now: Date): string[] {
  const entry = board.items[id]!;
  const live = liveClaim(entry, now);
  const state =
    entry.status === 'open' ? (live ? `held by ${live.agent} until ${live.expires}` : 'open') : entry.status;
  const lines = [`${id}\t${state}\t${entry.title}`];
  if (entry.after.length > 0) lines.push(`  after: ${entry.after.join(', ')}`);
  if (entry.paths.length > 0) lines.push(`  paths: ${entry.paths.join(' ')}`);
  if (entry.reason) lines.push(`  reason: ${entry.reason}`);
  if (entry.done_by) lines.push(`  done by ${entry.done_by} at ${entry.done_at}`);
  return lines;
}

function one(ids: string[], verb: string): string {
  if (ids.length !== 1) throw usageError(`work ${verb} needs exactly one item id`, SHORT);
  return ids[0] as string;
}

/**
 * Who runs this command: `--as`, or the agent baton's PreToolUse hook bound to the shell call
 * (BATON_AGENT, the host's agent id). When the hook bound one, `--as` may only repeat it: an agent
 * cannot claim, finish or give back an item under another agent's name.
 */
function boundAgent(flags: Parsed['flags'], env: NodeJS.ProcessEnv): string | undefined {
  const bound = env.BATON_AGENT || undefined;
  if (bound !== undefined && flags.as !== undefined && flags.as !== bound)
    throw new BatonError(
      'forbidden',
      `--as ${flags.as} is not the agent running this command (${bound}); nothing was written; drop --as: baton records the agent that runs it`,
    );
  return flags.as ?? bound;
}

function agent(bound: string | undefined, verb: string): string {
  if (!bound) throw usageError(`work ${verb} needs --as AGENT (the agent holding the item), or BATON_AGENT`, SHORT);
  return bound;
}

/** `--field KEY=VALUE`: free text fields of the item. */
function fields(pairs: string[]): JsonObject {
  const out: JsonObject = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError(`--field ${JSON.stringify(pair)} must be KEY=VALUE`, SHORT);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}
