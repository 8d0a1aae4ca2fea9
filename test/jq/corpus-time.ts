/**
 * The date builtins against jq 1.6 on glibc (UTC, C locale). Each batch case runs one program over
 * an array of values, so a few hundred instants and date strings cost a dozen jq processes.
 */
import type { Case } from './jq-binary.js';
import { rng } from './generate.js';

const HAND = [
  '"x" | todate', 'null | gmtime', '-1 | gmtime', '-1.5 | gmtime', '1425599507.9 | gmtime', '1e10 | todate', '1.9 | todate',
  '-0.5 | todate', '0 | todate', '1e9 | todate', '[2015,2,5,23,51,47,4,63] | mktime', '[2015,2,5,23,51,47.9,4,63] | mktime',
  '[2015,13,40,25,61,70,0,0] | mktime', '[2015,2,5,23,51,"a",4,63] | mktime', '[2015,2,5,23,51,47,4] | mktime', '"x" | mktime',
  '{} | mktime', '[1969,11,31,23,59,59,0,0] | mktime', '[2015,2,5,23,51,47] | todate', '[2015.7,2.2,5,23,51,47,4,63] | todate',
  '[2015,2,5,23,51,47,4,63] | todate', '1425599507 | strftime("")', '"a" | strftime("%Y")', '{} | strftime("%Y")',
  '1425599507 | strftime("%-d %_d %0d %^a %^B %-j %_H %-m")', '1425599507 | strftime("plain text, no conversion")',
  '1425599507 | strftime("%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%")',
  '"2015-03-05T23:51:47Z" | fromdate', '"2015-03-05T23:51:47.123Z" | fromdate', '"2015-03-05 23:51:47" | fromdate', '1 | fromdate',
  '"2015-03-05T23:51:47Z" | strptime(1)', '"2015-03-05T23:51:47Z" | fromdateiso8601', '1425599507 | todateiso8601',
  '"10 March 2015" | strptime("%d %B %Y")', '"10 mar 2015" | strptime("%d %b %Y")', '" 2015-3-5" | strptime("%Y-%m-%d")',
  '"2015-03-05T23:51:47+0100" | strptime("%Y-%m-%dT%H:%M:%S%z")', '"2015-03-05T23:51:47+01:00" | strptime("%Y-%m-%dT%H:%M:%S%z") | mktime',
  '"12/31/99" | strptime("%D")', '"99" | strptime("%y")', '"68" | strptime("%y")', '"69" | strptime("%y")', '"00" | strptime("%y")',
  '"2015 60" | strptime("%Y %j")', '"2016 366" | strptime("%Y %j")', '"2016 60 3" | strptime("%Y %j %m")', '"2015 367" | strptime("%Y %j")',
  '"23:51" | strptime("%H:%M")', '"2015-02-30" | strptime("%Y-%m-%d")', '"2015-02-30" | strptime("%Y-%m-%d") | mktime',
  '"2016-02-29T00:00:00Z" | fromdate', '"Thu, 05 Mar 2015 23:51:47 GMT" | strptime("%a, %d %b %Y %H:%M:%S GMT")',
  '"2015-03-05T23:51:47Z" | strptime("%Y-%m-%dT%H:%M:%S%Z")', '"2015-03-05T23:51:47 UTC" | strptime("%Y-%m-%dT%H:%M:%S %Z")',
  '"2015-03-05T23:51:61Z" | fromdate', '"2015-03-05T24:00:00Z" | fromdate', '"2015-03-05t23:51:47z" | fromdate',
  '"  2015-03-05T23:51:47Z" | fromdate', '"2015-03-05T23:51:47Z " | fromdate', '"2015-03-05T23:51:47Z\\tx" | strptime("%Y-%m-%dT%H:%M:%SZ")',
  '"2015-03-05x" | strptime("%Y-%m-%d")', '"2015 - 03" | strptime("%Y - %m")', '"2015-03" | strptime("%Y - %m")',
  '"Thursday 5" | strptime("%A %d")', '"thu5" | strptime("%a%d")', '" thu" | strptime("%a")', '"Marc" | strptime("%b")',
  '"12015-03-05" | strptime("%Y-%m-%d")', '"015-03-05" | strptime("%Y-%m-%d")', '"2015-3-5 7:8:9" | strptime("%Y-%m-%d %H:%M:%S")',
  '"2015-03-05T23:51" | strptime("%Y-%m-%dT%H:%M:%S")', '"" | strptime("")', '"abc" | strptime("")', '" " | strptime("")',
  '"%" | strptime("%%")', '"+01:30" | strptime("%z")', '"+0160" | strptime("%z")', '"+1" | strptime("%z")', '"Z" | strptime("%z")',
  '"5" | strptime("%e")', '"2015-03-05T23:51:47Z" | strptime("%FT%TZ")', '"23:51:47" | strptime("%T")', '"23:51" | strptime("%R")',
  '"0000-01-01T00:00:00Z" | fromdate', '"1999-12-31T23:59:59Z" | fromdate | todate', '1425599507 | gmtime | mktime',
  '"2015-03-05T23:51:47Z" | strptime("%Y-%m-%dT%H:%M:%SZ") | strftime("%A, %B %d, %Y")', '1425599507 | strftime("%%Y")',
  '0 | strftime("%G %g %V %U %W")', '1451606400 | strftime("%G %g %V %U %W %u %w %j")', '1483142400 | strftime("%G %g %V %U %W")',
  '[2015,2,5,23,51,47,4,63] | strftime("%s")', '1425599507 | gmtime | todate', 'now | type', 'now | todate', 'now', 'now | gmtime',
  'now | . - (now | floor) | . < 1', '[now, now] | .[0] == .[1]', '{"at": (now | todate)} | .at | fromdate | todate',
  '.last_update = (now | todate)', '.started_at = (now | strftime("%Y-%m-%dT%H:%M:%SZ"))', '(now | todate) as $t | .a = $t | .b = $t',
  '"2015-03-05T23:51:47Z" | fromdate | . + 86400 | todate', '"2015-03-05T23:51:47Z" | (now - fromdate) / 86400 | floor',
  '[.[]? | todate]', 'def now: 5; now | todate', '[limit(3; repeat(now))] | unique | length',
];

const STRF_ALL = '%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %p %P %r %R %s %S %T %u %U %V %w %W %x %X %y %Y %z %Z %%';

/** Instants over years 1000-9999, plus the edges of months, years, leap days and the epoch. */
function instants(r: () => number): number[] {
  const out = [0, 1, 86399, 86400, 951782400, 951868800, 2147483647, 2147483648, -30610224000, 253402300799, 1709164800, 1735689599];
  for (let i = 0; i < 240; i++) {
    const t = Math.floor(-30610224000 + r() * (253402300799 + 30610224000));
    out.push(i % 3 === 0 ? t + Math.floor(r() * 1000) / 1000 : t);
  }
  for (let i = 0; i < 120; i++) out.push(Math.floor(r() * 4102444800)); // 1970-2100: where real stamps live
  return out;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** Date strings around the valid ranges (hour 24, day 32, Feb 30, single digits, leap seconds). */
function dateStrings(r: () => number): [string, string][] {
  const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const MONTHS = ['Jan', 'February', 'mar', 'APRIL', 'May', 'Jun', 'July', 'aug', 'Sep', 'October', 'Nov', 'Dec'];
  const DAYS = ['Sun', 'Monday', 'tue', 'Wed', 'THURSDAY', 'Fri', 'sat'];
  const out: [string, string][] = [];
  for (let i = 0; i < 200; i++) {
    const y = int(1000, 9999);
    const y2 = r() < 0.7 ? int(1950, 2080) : y;
    const mo = int(0, 13);
    const d = int(0, 32);
    const h = int(0, 24);
    const mi = int(0, 60);
    const s = int(0, 62);
    const p = r() < 0.8 ? 2 : 1;
    switch (i % 8) {
      case 0: out.push([`${y2}-${pad(mo, p)}-${pad(d, p)}T${pad(h, p)}:${pad(mi, p)}:${pad(s, p)}Z`, '%Y-%m-%dT%H:%M:%SZ']); break;
      case 1: out.push([`${y2}-${pad(mo, 2)}-${pad(d, 2)}`, '%Y-%m-%d']); break;
      case 2: out.push([`${pad(d, p)} ${MONTHS[mo % 12]} ${y2}`, '%d %B %Y']); break;
      case 3: out.push([`${DAYS[d % 7]}, ${pad(d, 2)} ${MONTHS[mo % 12]} ${y2} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`, '%a, %d %b %Y %H:%M:%S']); break;
      case 4: out.push([`${y2}-${pad(mo, 2)}-${pad(d, 2)} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${r() < 0.5 ? '+' : '-'}${pad(int(0, 14), 2)}${r() < 0.5 ? ':' : ''}${pad(int(0, 61), 2)}`, '%Y-%m-%d %H:%M:%S%z']); break;
      case 5: out.push([`${y2} ${pad(int(0, 365), 3)}`, '%Y %j']); break;
      case 6: out.push([`${pad(mo, 2)}/${pad(d, 2)}/${pad(int(0, 99), 2)}`, '%D']); break;
      default: out.push([`${y}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z${r() < 0.2 ? ' ' : ''}`, '%FT%TZ']); break;
    }
  }
  return out;
}

function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const r = rng(2026);
const INSTANT_PROGRAM = `[.[] | [todate, gmtime, (gmtime | mktime), (gmtime | todate), (todate | fromdate), strftime("${STRF_ALL}")]]`;
const STRING_PROGRAM = '[.[] | . as [$s, $f] | try ($s | strptime($f) | [., mktime, (mktime | todate)]) catch .]';

export const TIME_CASES: Case[] = [
  ...HAND.map((expr) => ({ expr, input: '{"last_update":null}' })),
  ...batches(instants(r), 20).map((ts) => ({ expr: INSTANT_PROGRAM, input: JSON.stringify(ts) })),
  ...batches(dateStrings(r), 10).map((ss) => ({ expr: STRING_PROGRAM, input: JSON.stringify(ss) })),
];
