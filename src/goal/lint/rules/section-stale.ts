/**
 * A pending section that has not changed while Done grew by STATE_LINT_STALE_DONE items is
 * probably out of date. Hashes live in the `.lint` sidecar (`<key> <hash> <done count>`), so the
 * orchestrator stays the only writer of state.md. After a report the count starts again.
 */
import { createHash } from 'node:crypto';
import type { LintContext, LintRule } from '../lint-context.js';
import { entries } from '../lint-context.js';

const TRACKED = ['Next', 'Awaiting user', 'Queue', 'Map'];
const PLACEHOLDER = /^- \([^()]*\)$/;

function sectionHash(lines: string[]): string {
  return createHash('md5')
    .update(lines.map((line) => `${line}\n`).join(''))
    .digest('hex')
    .slice(0, 12);
}

function lastRecord(lines: string[], key: string): { hash: string; count: number } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const [k, hash, count] = (lines[i] as string).split(/\s+/);
    if (k === key) return { hash: hash ?? '', count: Number(count ?? 0) || 0 };
  }
  return undefined;
}

function record(ctx: LintContext, key: string, hash: string, done: number): void {
  const sidecar = ctx.sidecar;
  if (!sidecar) return;
  sidecar.lines = sidecar.lines.filter((line) => line.split(/\s+/)[0] !== key);
  sidecar.lines.push(`${key} ${hash} ${done}`);
  sidecar.changed = true;
}

export const rule: LintRule = {
  id: 'section-stale',
  check(ctx) {
    if (!ctx.sidecar) return [];
    const done = entries(ctx.section('Done')).length;
    const out: string[] = [];
    for (const name of TRACKED) {
      const lines = ctx.section(name);
      if (!entries(lines).some((line) => !PLACEHOLDER.test(line))) continue;
      const key = name.replaceAll(' ', '_');
      const hash = sectionHash(lines);
      const previous = lastRecord(ctx.sidecar.lines, key);
      if (!previous || previous.hash !== hash || previous.count > done) {
        record(ctx, key, hash, done);
        continue;
      }
      const grown = done - previous.count;
      if (grown >= ctx.thresholds.staleDone) {
        out.push(`## ${name} unchanged while Done grew by ${grown}; re-read it and fix each line it falsifies`);
        record(ctx, key, hash, done);
      }
    }
    return out;
  },
};
