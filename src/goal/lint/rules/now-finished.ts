/**
 * An agent entry whose report exists has returned and should be landed. The report is cut at
 * ` (` (`reports/x.md (late)`); an empty report never counts (it would resolve to the goal
 * folder itself, which always exists).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LintRule } from '../lint-context.js';
import { expandHome, parseAgentEntry } from '../../text.js';

export const rule: LintRule = {
  id: 'now-finished',
  check(ctx) {
    const out: string[] = [];
    for (const line of ctx.section('Now')) {
      const entry = parseAgentEntry(line);
      if (!entry) continue;
      const cut = entry.report.indexOf(' (');
      const report = cut >= 0 ? entry.report.slice(0, cut) : entry.report;
      if (report === '') continue;
      if (existsSync(resolve(ctx.goalDir, expandHome(report, ctx.home)))) {
        out.push(`${entry.label} has its report; it has returned: ${ctx.goalTool} land ${entry.label}`);
      }
    }
    return out;
  },
};
