/**
 * What every lint rule reads. Built once per run; sections are cut on first use and cached so a
 * 1 MB file is scanned a handful of times, not once per rule and section.
 */
import { envNumber } from '../../core/env.js';
import { sectionLines } from '../text.js';

export interface LintThresholds {
  maxBytes: number;
  maxDone: number;
  staleDone: number;
  markerSlack: number;
}

export function thresholdsFrom(env: NodeJS.ProcessEnv): LintThresholds {
  return {
    maxBytes: envNumber(env, 'STATE_LINT_MAX_BYTES', 10240),
    maxDone: envNumber(env, 'STATE_LINT_MAX_DONE', 20),
    staleDone: envNumber(env, 'STATE_LINT_STALE_DONE', 5),
    markerSlack: envNumber(env, 'STATE_LINT_MARKER_SLACK', 900),
  };
}

/** The `.lint` sidecar as lines; section-stale edits it and the runner writes it back once. */
export interface Sidecar {
  lines: string[];
  changed: boolean;
}

export interface LintContext {
  lines: string[];
  /** Size of the file in bytes. */
  size: number;
  /** Whole-second mtime of the file and the current time. */
  mtimeSec: number;
  nowSec: number;
  /** Absolute folder of the state file: relative report paths resolve here. */
  goalDir: string;
  home: string;
  /** Lines of the log, when one was given and readable. */
  logLines: string[] | undefined;
  sidecar: Sidecar | undefined;
  thresholds: LintThresholds;
  /** How the goal tool is named in finding texts (`goal.sh` or `baton goal`). */
  goalTool: string;
  section(name: string): string[];
}

export interface LintRule {
  id: string;
  /** Returns the finding texts (without the `lint: <code>: ` prefix), in output order. */
  check(ctx: LintContext): string[];
}

export interface Finding {
  code: string;
  message: string;
}

export function formatFinding(finding: Finding): string {
  return `lint: ${finding.code}: ${finding.message}`;
}

export function makeContext(base: Omit<LintContext, 'section'>): LintContext {
  const cache = new Map<string, string[]>();
  return {
    ...base,
    section(name: string): string[] {
      let lines = cache.get(name);
      if (lines === undefined) {
        lines = sectionLines(base.lines, name);
        cache.set(name, lines);
      }
      return lines;
    },
  };
}

/** `- ` lines of a section: entries. */
export function entries(lines: string[]): string[] {
  return lines.filter((line) => line.startsWith('- '));
}
