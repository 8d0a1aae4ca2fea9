/**
 * Line 1 of the status line (model, folder, worktree, git, context, limits, time, cost; the
 * Eneo original's environment badge is Eneo-specific and not built in). Pure: everything it shows
 * comes from its arguments, so tests can pin every colour and rounding case.
 */
import { basename } from 'node:path';
import { clean, painter, SEP } from './task-line.js';
import type { GitInfo } from './git.js';
import type { StatusInput } from './input.js';

export interface Line1Options {
  color: boolean;
  showCost: boolean;
  /** Folder shown when the payload has no `workspace.current_dir`. */
  cwd: string;
}

/**
 * Rounds like C `printf %.0f` (ties to even: 69.5 → 70, 70.5 → 70, 89.5 → 90), which is what the
 * original used for the colour decision. Baton then prints this same integer, so the number shown
 * and its colour always agree.
 */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** `<s>s` under a minute, `<m>m` under an hour, else `<h>h<m>m`; always truncated, never rounded up. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
}

export function renderLine1(input: StatusInput, git: GitInfo | undefined, options: Line1Options): string {
  const paint = painter(options.color);
  const model = clean(input.model);
  const title = input.sessionName === undefined ? `[${model}]` : `[${model}${SEP}${clean(input.sessionName)}]`;
  const folder = clean(basename(input.currentDir ?? options.cwd)) || '/';
  const parts = [`${paint('bold', title)} ${folder}`];
  if (input.worktree !== undefined) parts.push(`${paint('dim', 'wt')} ${clean(input.worktree)}`);
  if (git?.branch) parts.push(`${paint('cyan', '⎇')} ${clean(git.branch)}`);
  if (git && git.staged !== 0) parts.push(paint('green', `+${git.staged}`));
  if (git && git.modified !== 0) parts.push(paint('yellow', `~${git.modified}`));
  if (input.contextPct !== undefined) {
    const pct = roundHalfEven(input.contextPct);
    parts.push(paint(pct >= 90 ? 'red' : pct >= 70 ? 'yellow' : 'green', `${pct}% ctx`));
  }
  for (const [label, value] of [
    ['5h', input.fiveHourPct],
    ['7d', input.sevenDayPct],
  ] as const) {
    if (value === undefined) continue;
    const pct = roundHalfEven(value);
    if (pct >= 70) parts.push(paint('yellow', `${label} ${pct}%`));
  }
  if (input.durationMs !== undefined) parts.push(formatDuration(input.durationMs));
  if (options.showCost && input.costUsd !== undefined) parts.push(`$${input.costUsd.toFixed(2)}`);
  return parts.join(SEP);
}
