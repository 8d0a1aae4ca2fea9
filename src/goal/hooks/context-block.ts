/**
 * The context block injected into the owning session: fixed lines, then the crash warning,
 * lost agents, the full lint, the scratch report and (optionally) the head, in that order.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { envNumber } from '../../core/env.js';
import type { ToolNames } from '../goal-paths.js';
import { formatFinding } from '../lint/lint-context.js';
import { lintState } from '../lint/lint-file.js';
import { expandHome, parseAgentEntry } from '../text.js';
import { isoSeconds } from '../../core/iso-time.js';
import { clockTime, wholeSeconds } from '../goal-time.js';
import { diskUsageBytes } from '../disk-usage.js';
import { extractHead } from './head.js';
import type { Scope } from './scope.js';
import { readGoalText } from '../goal-read.js';

export interface BlockRequest {
  who: string;
  mode: string;
  withHead: boolean;
  transcriptPath: string;
  env: NodeJS.ProcessEnv;
  names: ToolNames;
}

const CRASH_SLACK_SECONDS = 120;
const MIB = 1024 * 1024;

function mtimeSeconds(path: string): number | undefined {
  try {
    return wholeSeconds(statSync(path).mtimeMs);
  } catch {
    return undefined;
  }
}

/** The newest other transcript beside the current one, if it was written after state.md. */
function crashWarning(scope: Scope, request: BlockRequest): string[] {
  const current = request.transcriptPath;
  if (current === '') return [];
  const folder = dirname(current);
  let newest: { path: string; mtime: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((name) => name.endsWith('.jsonl'))
      .sort();
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(folder, name);
    if (path.includes(current)) continue;
    const mtime = mtimeSeconds(path);
    if (mtime !== undefined && (!newest || mtime > newest.mtime)) newest = { path, mtime };
  }
  const stateMtime = mtimeSeconds(scope.paths.state);
  if (!newest || stateMtime === undefined || newest.mtime - stateMtime <= CRASH_SLACK_SECONDS) return [];
  return [
    '',
    `Previous transcript ${newest.path} was last written ${isoSeconds(new Date(newest.mtime * 1000))},`,
    `AFTER the state file (${clockTime(stateMtime)}), so it may hold work the file lacks`,
    '(a crash, or a turn that ended unflushed). Reconcile before any work and say what you found:',
    `ask a haiku agent a specific question of: ${request.names.transcriptCommand} <transcript> --since <ISO>.`,
    'Never /resume it.',
  ];
}

/** Agent entries of the injected head's Now whose report does not exist yet. */
function lostAgents(head: string, scope: Scope, home: string): string[] {
  const out: string[] = [];
  let inNow = false;
  for (const line of head.split('\n')) {
    if (line.startsWith('## ')) {
      inNow = line.startsWith('## Now');
      continue;
    }
    if (!inNow) continue;
    const entry = parseAgentEntry(line);
    if (!entry || entry.report === '') continue;
    if (existsSync(resolve(scope.paths.dir, expandHome(entry.report, home)))) continue;
    out.push(
      `Now entry ${entry.label} has no report yet: still running or lost - check before relaunching from ${expandHome(entry.brief, home)}.`,
    );
  }
  return out.length > 0 ? ['', ...out] : [];
}

export function lintLines(scope: Scope, request: BlockRequest): string[] {
  const findings = lintState(scope.paths.state, {
    logPath: scope.paths.log,
    sidecarPath: scope.paths.sidecar,
    env: request.env,
    goalTool: request.names.goal,
  });
  return (findings ?? []).map(formatFinding);
}

function scratchReport(scope: Scope, env: NodeJS.ProcessEnv): string[] {
  let total = 0;
  let any = false;
  const seen = new Set<string>();
  for (const name of readdirSync(scope.root)) {
    if (name.startsWith('.')) continue; // `ROOT/*/scratch` as a glob: hidden folders are no goals
    const scratch = join(scope.root, name, 'scratch');
    if (!existsSync(scratch)) continue;
    any = true;
    total += diskUsageBytes(scratch, seen);
  }
  const threshold = envNumber(env, 'STATE_SCRATCH_REPORT_MB', 1024);
  const mib = Math.ceil(total / MIB);
  if (!any || mib <= threshold) return [];
  return [
    '',
    `Scratch in ${scope.root}/*/scratch totals ${mib} MB (report threshold ${threshold} MB). Offer the user a cleanup: list each scratch dir with its size and whether its goal is stopped; delete only what they name.`,
  ];
}

export function contextBlock(scope: Scope, request: BlockRequest): string {
  const { slug, dir } = scope.pointer;
  const state = scope.paths.state;
  const text = readGoalText(state);
  const lineCount = text.split('\n').length - 1;
  const home = request.env.HOME ?? '';
  const head = extractHead(text);
  const lint = lintLines(scope, request);
  const lines = [
    `## Orchestrate: ${slug}`,
    `(injected by ${request.who})`,
    '',
    `Goal folder: ${scope.paths.dir}`,
    request.withHead
      ? `State file:  ${state} (${lineCount} lines; the head is below, the body is not loaded)`
      : `State file:  ${state} (${lineCount} lines; not loaded)`,
    `Status file: ${dir}/.claude/status.md`,
    request.mode,
    ...crashWarning(scope, request),
    ...lostAgents(head, scope, home),
    ...(lint.length > 0
      ? ['', 'State file lint (fix what is wrong; a finding you judged wrong may stay):', ...lint]
      : []),
    ...scratchReport(scope, request.env),
  ];
  let block = `${lines.join('\n')}\n`;
  if (request.withHead) {
    block += `\n--- head of ${state} ---\n${head}${head === '' || head.endsWith('\n') ? '' : '\n'}--- end head ---\n`;
  }
  return block;
}
