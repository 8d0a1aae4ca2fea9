/**
 * Runs every rule over one state file. The only file written is the sidecar, and only
 * when section-stale changed it. Returns undefined when the state file is not a regular file
 * (the lint then prints nothing and exits 0).
 */
import { closeSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic.js';
import { splitLines } from '../text.js';
import { wholeSeconds } from '../goal-time.js';
import { makeContext, thresholdsFrom, type Finding, type LintContext, type Sidecar } from './lint-context.js';
import { RULES } from './rules/all-rules.js';
import { readGoalBytes, readGoalText } from '../goal-read.js';
import { isReadRefusal } from '../../fs/bounded-read.js';

export interface LintOptions {
  logPath?: string | undefined;
  sidecarPath?: string | undefined;
  env: NodeJS.ProcessEnv;
  goalTool: string;
  now?: Date;
}

function readOptional(path: string | undefined): string[] | undefined {
  if (!path) return undefined;
  try {
    return splitLines(readGoalText(path));
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    return undefined;
  }
}

/** Creates the sidecar when missing; undefined when that fails (section-stale is then skipped). */
function openSidecar(path: string | undefined): Sidecar | undefined {
  if (!path) return undefined;
  try {
    closeSync(openSync(path, 'a'));
    return { lines: splitLines(readGoalText(path)), changed: false };
  } catch {
    return undefined;
  }
}

export function buildContext(statePath: string, options: LintOptions): LintContext | undefined {
  let stat;
  try {
    stat = statSync(statePath);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  const bytes = readGoalBytes(statePath);
  return makeContext({
    lines: splitLines(bytes.toString('utf8')),
    size: bytes.length,
    mtimeSec: wholeSeconds(stat.mtimeMs),
    nowSec: wholeSeconds((options.now ?? new Date()).getTime()),
    goalDir: dirname(resolve(statePath)),
    home: options.env.HOME ?? '',
    logLines: readOptional(options.logPath),
    sidecar: openSidecar(options.sidecarPath),
    thresholds: thresholdsFrom(options.env),
    goalTool: options.goalTool,
  });
}

export function runRules(ctx: LintContext): Finding[] {
  const findings: Finding[] = [];
  for (const rule of RULES) for (const message of rule.check(ctx)) findings.push({ code: rule.id, message });
  return findings;
}

export function lintState(statePath: string, options: LintOptions): Finding[] | undefined {
  const ctx = buildContext(statePath, options);
  if (!ctx) return undefined;
  const findings = runRules(ctx);
  if (ctx.sidecar?.changed && options.sidecarPath) {
    try {
      writeFileAtomic(options.sidecarPath, ctx.sidecar.lines.map((line) => `${line}\n`).join(''), { durable: false });
    } catch {
      // bookkeeping only: a sidecar that cannot be written costs a missed staleness report
    }
  }
  return findings;
}
