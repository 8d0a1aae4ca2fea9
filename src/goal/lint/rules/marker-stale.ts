/**
 * updated= must match the file's last change (within the slack) and not lie in the future.
 * Values that are not a date (the template's `<ISO UTC>`) skip the check.
 */
import type { LintRule } from '../lint-context.js';
import { readMarkerField } from '../../text.js';

const FORMATS = [
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z?$/,
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})Z?$/,
  /^(\d{4})-(\d{2})-(\d{2})$/,
];

function parseMarkerTime(value: string): number | undefined {
  for (const format of FORMATS) {
    const match = format.exec(value);
    if (!match) continue;
    const [y, mo, d, h = '0', mi = '0', s = '0'] = match.slice(1).map((part) => part ?? '0');
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    const date = new Date(ms);
    // Reject rollovers such as month 13 or day 32, which Date.UTC would silently carry.
    if (Number.isNaN(ms) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
    return Math.floor(ms / 1000);
  }
  return undefined;
}

const FUTURE_SLACK_SECONDS = 300;

export const rule: LintRule = {
  id: 'marker-stale',
  check(ctx) {
    const value = readMarkerField(ctx.lines, 'updated');
    const updated = value === '' ? undefined : parseMarkerTime(value);
    if (updated === undefined || updated <= 0) return [];
    const stale = ctx.mtimeSec - updated > ctx.thresholds.markerSlack || updated - ctx.nowSec > FUTURE_SLACK_SECONDS;
    return stale
      ? [`updated=${value} does not match the file's last change; run ${ctx.goalTool} touch, never type the time`]
      : [];
  },
};
