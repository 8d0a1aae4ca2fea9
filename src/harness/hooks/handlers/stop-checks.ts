/**
 * What may keep the main agent from stopping, in the order the Stop handler runs them: the wave
 * gate, the built-in presets (the Eneo harness's stop-ratchet and typecheck-on-stop hooks), then
 * the project's `stop.commands`. Each answers with a failure (the block reason) or nothing.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { HarnessConfig, StopCommand } from '../../../project/config.js';
import type { StateReader } from '../../../project/policy/state.js';
import { blockedReasons, isReady, normalizeWave } from '../../task/wave-barrier.js';
import { readStateText } from '../../task/state-read.js';
import { DOCUMENT_FILE_MAX_BYTES, isReadRefusal } from '../../../fs/bounded-read.js';
import { absent, noEntry, unreadable } from '../../../fs/absent.js';
import type { WorkBoard } from '../../../board/board.js';
import { barrier, type PendingItem } from '../../../board/barrier.js';

export interface Failure {
  /** Names the check in logs and in the repeat guard. */
  name: string;
  /** Why, in a few words (exit 1, timed out, ...). */
  why: string;
  /** The block reason the model reads. */
  reason: string;
}

export interface CheckContext {
  config: HarnessConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  state: StateReader;
  log: string[];
}

const TAIL_LINES = 20;

/**
 * The wave gate (`stop.waveGate`): while the task's current wave (wave.json) is not ready, the
 * orchestrator is told to wait for its agents or deal with the blocked ones instead of ending
 * the turn. `incomplete` blocks while fewer agents reported DONE than expected (and on BLOCKED
 * results); `blocked` only when an agent returned BLOCKED; `off` never.
 */
export function waveGate({ config, root, state }: CheckContext): Failure | undefined {
  const mode = config.stop?.waveGate ?? 'off';
  if (mode === 'off' || !config.wave || !state.slug()) return undefined;
  let wave;
  const file = resolve(root, config.wave.file);
  try {
    wave = normalizeWave(JSON.parse(readStateText(file)));
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    // A wave file that cannot be looked at (a link loop, a folder this user may not enter) is not
    // "no wave running": the gate would lift mid-wave.
    if (!noEntry(error) && !(error instanceof SyntaxError)) throw unreadable('wave file', file, error);
    return undefined; // no wave running, or a broken file the doctor reports
  }
  if (!wave || isReady(wave.status) || wave.expected <= 0) return undefined;
  const reasons = blockedReasons(wave);
  const blocked = wave.blocked_agents.map((agent) => (reasons[agent] ? `${agent} (${reasons[agent]})` : agent));
  if (blocked.length === 0 && (mode === 'blocked' || wave.done >= wave.expected)) return undefined;
  const lines = [
    `✗ Wave ${wave.wave} is not complete: ${wave.done}/${wave.expected} agents reported DONE${blocked.length > 0 ? `; BLOCKED: ${blocked.join(', ')}` : ''}.`,
    blocked.length > 0
      ? '  Fix:  resolve the blocked agents (relaunch them with what they lacked, or re-plan the wave with `baton task wave-start`) before ending the turn.'
      : '  Fix:  wait for the running agents to return (each DONE|/BLOCKED| result is counted), or relaunch the lost ones, before ending the turn.',
    `  Rule: stop.waveGate is "${mode}" in baton.config.json; set it to "off" to allow stopping mid-wave.`,
  ];
  return {
    name: 'wave-gate',
    why: `wave ${wave.wave} at ${wave.done}/${wave.expected}${blocked.length > 0 ? `, ${blocked.length} blocked` : ''}`,
    reason: lines.join('\n'),
  };
}

/** The work board as the Stop handler read it through the project's store, or why it could not. */
export type BoardRead = { board: WorkBoard | undefined } | { error: string };

/**
 * The board gate (`stop.boardGate`), the wave gate generalised to the work board: the main agent
 * may not end its turn while items are open. `pending` blocks while any item is not done (open,
 * held or blocked), `held` only while an agent holds one (subagents still at work), `off` never. A
 * board that cannot be read blocks too, naming the fix: a gated event fails closed.
 */
export function boardGate({ config }: CheckContext, read: BoardRead | undefined): Failure | undefined {
  const mode = config.stop?.boardGate ?? 'off';
  if (mode === 'off' || read === undefined) return undefined;
  if ('error' in read)
    return {
      name: 'board-gate',
      why: 'the board could not be read',
      reason: `✗ The work board could not be read (${read.error}).\n  Fix:  run baton doctor, or set stop.boardGate to "off" in baton.config.json.`,
    };
  const { board } = read;
  if (!board) return undefined;
  const ids = Object.keys(board.items);
  const pending = barrier(board, ids, ids.length, new Date()).pending.filter(
    (item) => mode === 'pending' || item.holder !== undefined,
  );
  if (pending.length === 0) return undefined;
  const shown = pending.slice(0, 20).map((item) => `  • ${describePending(item, board)}`);
  const waitFor = pending.map((item) => item.id).join(' ');
  return {
    name: 'board-gate',
    why: `${pending.length} item(s) ${mode === 'held' ? 'held' : 'not done'}`,
    reason: [
      `✗ ${pending.length} work-board item(s) ${mode === 'held' ? 'still held by agents' : 'not done'}:`,
      ...shown,
      ...(pending.length > shown.length ? [`  • ... and ${pending.length - shown.length} more (baton work show)`] : []),
      `  Fix:  wait for them (baton work wait ${waitFor} --all --timeout 600; in Claude Code give that Bash call a timeout of 600000 ms, or it moves to the background after 2 minutes), or launch agents for the open ones, or block/reopen what cannot go on, before ending the turn.`,
      `  Rule: stop.boardGate is "${mode}" in baton.config.json; set it to "off" to allow stopping with work open.`,
    ].join('\n'),
  };
}

function describePending(item: PendingItem, board: WorkBoard): string {
  const entry = board.items[item.id];
  const state = item.holder
    ? `held by ${item.holder} until ${item.expires}`
    : item.status === 'blocked'
      ? `blocked${entry?.reason ? `: ${entry.reason}` : ''}`
      : item.waits_for
        ? `open, waits for ${item.waits_for.join(', ')}`
        : 'open, nobody holds it';
  return `${item.id} (${entry?.title ?? ''}): ${state}`;
}

/**
 * Preset `ratchet` (the Eneo stop-ratchet): per-file floors in `.claude/ratchet/coverage.json`
 * and `mutation.json` (`{"file": percent}`) against the current artifacts, in
 * `.claude/ratchet/.current/` or else the project's `coverage.json` (coverage.py JSON) and
 * `mutmut.json` (`{"files": {"file": {"score": n}}}`). A file under its floor fails; a missing
 * current artifact fails only once the task's status is `verified`. No baselines: nothing to do.
 */
export function ratchet({ root, state }: CheckContext): Failure | undefined {
  const dir = join(root, '.claude', 'ratchet');
  const kinds = [
    {
      label: 'coverage',
      floors: floors(join(dir, 'coverage.json')),
      current: [join(dir, '.current', 'coverage.json'), join(root, 'coverage.json')],
      read: coverageScores,
    },
    {
      label: 'mutation',
      floors: floors(join(dir, 'mutation.json')),
      current: [join(dir, '.current', 'mutation.json'), join(root, 'mutmut.json')],
      read: mutationScores,
    },
  ];
  const verified = state.doc('task')?.status === 'verified';
  const problems: string[] = [];
  for (const kind of kinds) {
    if (Object.keys(kind.floors).length === 0) continue;
    // Not existsSync: an artifact that cannot be looked at is read, and its failure blocks.
    const source = kind.current.find((path) => !absent(path));
    const scores = source ? kind.read(source) : {};
    if (Object.keys(scores).length === 0) {
      if (verified) problems.push(`current ${kind.label} artifact is missing (${kind.current[0]})`);
      continue;
    }
    for (const [file, floor] of Object.entries(kind.floors)) {
      const actual = scores[file];
      // A file absent from this run was removed or not measured: the next baseline drops it.
      if (actual !== undefined && actual + 0.01 < floor)
        problems.push(`${kind.label} regression: ${file} — floor ${floor.toFixed(1)}%, actual ${actual.toFixed(1)}%`);
    }
  }
  if (problems.length === 0) return undefined;
  return {
    name: 'ratchet',
    why: `${problems.length} problem(s)`,
    reason: [
      '✗ Coverage/mutation ratchet failed:',
      ...problems.map((p) => `  • ${p}`),
      '  Fix:  bring the files back to their floors, or generate the current artifacts before finishing.',
    ].join('\n'),
  };
}

/**
 * Preset `typecheck` (the Eneo typecheck-on-stop): when Python files changed (git), runs the
 * project's `backend/scripts/typecheck_changed.sh` in `backend/` and blocks with its first 15
 * lines on failure. Off with TYPECHECK_DISABLE=1; TYPECHECK_WARN_ONLY=1 only logs. A missing
 * script, no changed Python file or a timeout (120 s) lets the stop through, as the original did.
 */
export function typecheck({ root, env, log }: CheckContext): Failure | undefined {
  const flag = (name: string) => ['1', 'true'].includes((env[name] ?? '').toLowerCase());
  const script = join(root, 'backend', 'scripts', 'typecheck_changed.sh');
  // Only a script with nothing at its path is skipped: one that cannot be looked at is run, and fails.
  if (flag('TYPECHECK_DISABLE') || absent(script)) return undefined;
  const changed = changedPython(root);
  if (changed.length === 0) return undefined;
  const run = spawnSync('bash', [script], { cwd: join(root, 'backend'), encoding: 'utf8', timeout: 120_000, env });
  if (run.status === 0) return undefined;
  if (run.error || run.signal) {
    log.push(`[typecheck] not checked: ${run.error?.message ?? `timed out after 120s`}`);
    return undefined;
  }
  const lines = (run.stderr || run.stdout || '')
    .trim()
    .split('\n')
    .filter((line) => line !== '');
  if (flag('TYPECHECK_WARN_ONLY')) {
    log.push(`[typecheck] failed (warn only): ${lines.slice(0, 3).join(' | ')}`);
    return undefined;
  }
  const shown = lines.slice(0, 15);
  if (lines.length > 15) shown.push(`... and ${lines.length - 15} more errors`);
  return {
    name: 'typecheck',
    why: `exit ${run.status}`,
    reason: [
      `✗ Type checking failed in ${changed.length} file(s).`,
      '  Rule: pyright strict ratchet (.claude/rules/eneo-context.md#pyright-strict).',
      "  Fix:  resolve the errors below, then re-run '/eneo-verify' or /checker.",
      '',
      ...shown,
    ].join('\n'),
  };
}

export const PRESETS = { ratchet, typecheck } as const;

/** One `stop.commands` entry: the command's output tail is the reason. */
export function command(entry: StopCommand, { root, env }: CheckContext): Failure | undefined {
  const run = spawnSync('sh', ['-c', entry.run], {
    cwd: root,
    encoding: 'utf8',
    timeout: (entry.timeoutSec ?? 120) * 1000,
    env,
  });
  if (run.status === 0) return undefined;
  const why = run.error
    ? `could not run (${run.error.message})`
    : run.signal
      ? `timed out after ${entry.timeoutSec ?? 120}s`
      : `exit ${run.status}`;
  const tail = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
  return {
    name: entry.name,
    why,
    reason: `Verification '${entry.name}' failed (${why}). Fix what it reports, then finish.\n$ ${entry.run}\n${tail}`,
  };
}

function floors(path: string): Record<string, number> {
  const data = readJson(path);
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  return Object.fromEntries(
    Object.entries(data).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );
}

function coverageScores(path: string): Record<string, number> {
  const files = (readJson(path) as { files?: Record<string, { summary?: { percent_covered?: unknown } }> } | undefined)
    ?.files;
  const out: Record<string, number> = {};
  for (const [file, info] of Object.entries(files ?? {})) {
    const value = info?.summary?.percent_covered;
    if (typeof value === 'number') out[file] = value;
  }
  return out;
}

function mutationScores(path: string): Record<string, number> {
  const files = (readJson(path) as { files?: Record<string, { score?: unknown }> } | undefined)?.files;
  const out: Record<string, number> = {};
  for (const [file, info] of Object.entries(files ?? {})) out[file] = typeof info?.score === 'number' ? info.score : 0;
  return out;
}

/** The file's JSON; undefined when nothing is there or it is not JSON. One that cannot be looked at throws: its floors are not "none". */
function readJson(path: string): unknown {
  try {
    return JSON.parse(readStateText(path, DOCUMENT_FILE_MAX_BYTES));
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    if (!noEntry(error) && !(error instanceof SyntaxError)) throw unreadable('ratchet file', path, error);
    return undefined;
  }
}

/** Changed and new Python files in the working tree (git), relative to the root. */
function changedPython(root: string): string[] {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const diff = git(['diff', '--name-only', 'HEAD', '--', '*.py']);
  const fresh = git(['ls-files', '--others', '--exclude-standard', '--', '*.py']);
  return [
    ...new Set(
      `${diff.status === 0 ? diff.stdout : ''}${fresh.status === 0 ? fresh.stdout : ''}`.split('\n').filter(Boolean),
    ),
  ];
}
