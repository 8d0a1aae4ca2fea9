/**
 * jq 1.6's date builtins (gmtime, mktime, strftime, strptime) for UTC, as Debian's jq 1.6 runs
 * them on glibc in the C locale with TZ unset. jq hands these to libc, so the quirks are glibc's:
 * a broken-down time is [year, month 0-11, day, hours, minutes, seconds, weekday, day of year];
 * strptime leaves weekday 8 and day 367 when the text had no date; fields outside their range are
 * normalised by mktime and printed as given by strftime. Only years 1000-9999 are answered (glibc
 * prints other years without padding, and huge ones crash jq 1.6), and only the conversions
 * below: anything else is refused rather than guessed.
 */
import { Raised, unsupported } from './jq-errors.js';
import type { Json } from './values.js';

type Tm = [year: number, mon: number, mday: number, hour: number, min: number, sec: number, wday: number, yday: number];

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MON_YDAY = [
  [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365],
  [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366],
] as const;
// 1000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
const MIN_T = -30610224000;
const MAX_T = 253402300799;

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const monYday = (y: number): readonly number[] => MON_YDAY[isLeap(y) ? 1 : 0];

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12, any day). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** glibc's timegm: normalises every field, like jq's mktime. */
function timegm(tm: Tm): number {
  const [year, mon, mday, hour, min, sec] = tm;
  const y = year + Math.floor(mon / 12);
  const m = ((mon % 12) + 12) % 12;
  const days = daysFromCivil(y, m + 1, 1) + mday - 1;
  return days * 86400 + hour * 3600 + min * 60 + sec;
}

function brokenDown(t: number): Tm {
  const days = Math.floor(t / 86400);
  const secs = t - days * 86400;
  const d = new Date(days * 86400000);
  const year = d.getUTCFullYear();
  const mon = d.getUTCMonth();
  const mday = d.getUTCDate();
  return [
    year,
    mon,
    mday,
    Math.floor(secs / 3600),
    Math.floor(secs / 60) % 60,
    secs % 60,
    d.getUTCDay(),
    (monYday(year)[mon] as number) + mday - 1,
  ];
}

export function gmtime(v: Json): Json {
  if (typeof v !== 'number') throw new Raised('gmtime() requires numeric inputs');
  // jq converts to time_t (truncation), then adds back the fraction measured from floor().
  const t = Math.trunc(v);
  if (!(t >= MIN_T && t <= MAX_T)) throw unsupported('dates outside the years 1000-9999');
  const tm = brokenDown(t);
  tm[5] += v - Math.floor(v);
  return tm;
}

/** jv2tm: the first eight elements must be numbers; C converts each to int by truncation. */
function toTm(v: Json, error: string): Tm {
  if (!Array.isArray(v)) throw new Raised(error);
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    const x = v[i];
    if (typeof x !== 'number') throw new Raised(error);
    if (!(Math.abs(x) < 2 ** 31)) throw unsupported('broken-down time fields outside the range of a C int');
    out.push(Math.trunc(x));
  }
  return out as Tm;
}

export function mktime(v: Json): Json {
  if (!Array.isArray(v)) throw new Raised('mktime requires array inputs');
  const t = timegm(toTm(v, 'mktime requires parsed datetime inputs'));
  if (!Number.isSafeInteger(t)) throw unsupported('mktime beyond 2^53 seconds');
  // time_t -1 is mktime's error value, so jq 1.6 reports the second before the epoch as invalid.
  if (t === -1) throw new Raised('invalid gmtime representation');
  return t;
}

// ---------------------------------------------------------------------------------- strftime

function pad(n: number, width: number, flag: string, defaultPad: '0' | ' '): string {
  const s = String(n);
  const p = flag === '-' ? '' : flag === '_' ? ' ' : flag === '0' ? '0' : defaultPad;
  return p === '' ? s : s.padStart(width, p);
}

/** glibc iso_week_days: days since the Monday of the ISO week that holds the year's first Thursday. */
function isoWeekDays(yday: number, wday: number): number {
  return yday - ((yday - wday + 4 + 378) % 7) + 3;
}

function isoWeek(tm: Tm): { year: number; week: number } {
  const [year, , , , , , wday, yday] = tm;
  let days = isoWeekDays(yday, wday);
  let y = year;
  if (days < 0) {
    y--;
    days = isoWeekDays(yday + 365 + (isLeap(y) ? 1 : 0), wday);
  } else {
    const d = isoWeekDays(yday - 365 - (isLeap(year) ? 1 : 0), wday);
    if (d >= 0) {
      y++;
      days = d;
    }
  }
  return { year: y, week: Math.floor(days / 7) + 1 };
}

const COMPOSITE: Record<string, string> = {
  c: '%a %b %e %H:%M:%S %Y',
  D: '%m/%d/%y',
  F: '%Y-%m-%d',
  r: '%I:%M:%S %p',
  R: '%H:%M',
  T: '%H:%M:%S',
  x: '%m/%d/%y',
  X: '%H:%M:%S',
};

function conversion(tm: Tm, c: string, flag: string): string {
  const [year, mon, mday, hour, min, sec, wday, yday] = tm;
  const text = (s: string): string => (flag === '^' ? s.toUpperCase() : s);
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  switch (c) {
    case 'a':
      return text((DAYS[wday] as string).slice(0, 3));
    case 'A':
      return text(DAYS[wday] as string);
    case 'b':
    case 'h':
      return text((MONTHS[mon] as string).slice(0, 3));
    case 'B':
      return text(MONTHS[mon] as string);
    case 'C':
      return pad(Math.floor(year / 100), 2, flag, '0');
    case 'd':
      return pad(mday, 2, flag, '0');
    case 'e':
      return pad(mday, 2, flag, ' ');
    case 'g':
      return pad(isoWeek(tm).year % 100, 2, flag, '0');
    case 'G':
      return pad(isoWeek(tm).year, 4, flag, '0');
    case 'H':
      return pad(hour, 2, flag, '0');
    case 'I':
      return pad(hour12, 2, flag, '0');
    case 'j':
      return pad(yday + 1, 3, flag, '0');
    case 'k':
      return pad(hour, 2, flag, ' ');
    case 'l':
      return pad(hour12, 2, flag, ' ');
    case 'm':
      return pad(mon + 1, 2, flag, '0');
    case 'M':
      return pad(min, 2, flag, '0');
    case 'S':
      return pad(sec, 2, flag, '0');
    case 'u':
      return pad(wday === 0 ? 7 : wday, 1, flag, '0');
    case 'U':
      return pad(Math.floor((yday - wday + 7) / 7), 2, flag, '0');
    case 'V':
      return pad(isoWeek(tm).week, 2, flag, '0');
    case 'w':
      return pad(wday, 1, flag, '0');
    case 'W':
      return pad(Math.floor((yday - ((wday - 1 + 7) % 7) + 7) / 7), 2, flag, '0');
    case 'y':
      return pad(year % 100, 2, flag, '0');
    case 'Y':
      return pad(year, 4, flag, '0');
  }
  if (flag) throw unsupported(`strftime flag ${flag} on %${c}`);
  switch (c) {
    case 'p':
      return hour >= 12 ? 'PM' : 'AM';
    case 'P':
      return hour >= 12 ? 'pm' : 'am';
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 's':
      return String(timegm(tm));
    case 'z':
      return '+0000';
    case 'Z':
      return 'UTC';
    case '%':
      return '%';
  }
  const composite = COMPOSITE[c];
  if (composite) return formatTm(tm, composite);
  throw unsupported(`strftime conversion %${c}`);
}

function formatTm(tm: Tm, fmt: string): string {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i] as string;
    if (ch !== '%') {
      out += ch;
      continue;
    }
    let flag = '';
    if ('-_0^'.includes(fmt[i + 1] ?? '') && fmt[i + 1] !== undefined) flag = fmt[++i] as string;
    const c = fmt[++i];
    if (c === undefined || !/[A-Za-z%]/.test(c) || c === 'E' || c === 'O')
      throw unsupported('strftime format with a width, E/O modifier or a trailing %');
    out += conversion(tm, c, flag);
  }
  return out;
}

export function strftime(v: Json, fmt: Json): Json {
  if (typeof fmt !== 'string') throw unsupported('strftime with a non-string format (jq 1.6 aborts)');
  const input = typeof v === 'number' ? gmtime(v) : v;
  const tm = toTm(input, 'strftime/1 requires parsed datetime inputs');
  const [year, mon, mday, hour, min, sec, wday, yday] = tm;
  // glibc prints out-of-range fields as-is ("?" for a weekday name): only normal values are answered.
  if (
    year < 1000 ||
    year > 9999 ||
    mon < 0 ||
    mon > 11 ||
    mday < 1 ||
    mday > 31 ||
    hour < 0 ||
    hour > 23 ||
    min < 0 ||
    min > 59 ||
    sec < 0 ||
    sec > 60 ||
    wday < 0 ||
    wday > 6 ||
    yday < 0 ||
    yday > 365
  ) {
    throw unsupported('strftime of a broken-down time with a field out of its normal range');
  }
  const out = formatTm(tm, fmt);
  if (out === '') throw new Raised('strftime/1: unknown system failure');
  return out;
}

// ---------------------------------------------------------------------------------- strptime

const isSpace = (c: string | undefined): boolean => c !== undefined && ' \t\n\v\f\r'.includes(c);

interface ParseState {
  tm: Tm;
  wantXday: boolean;
  haveWday: boolean;
  haveYday: boolean;
  haveMon: boolean;
  haveMday: boolean;
}

/** glibc's get_number: skips white space, reads up to `n` digits while the value can still grow. */
function number(s: string, pos: { i: number }, from: number, to: number, n: number): number | null {
  while (isSpace(s[pos.i])) pos.i++;
  const first = s[pos.i];
  if (first === undefined || first < '0' || first > '9') return null;
  let val = 0;
  do {
    val = val * 10 + (s.charCodeAt(pos.i++) - 48);
    n--;
  } while (
    n > 0 &&
    val * 10 <= to &&
    s[pos.i] !== undefined &&
    (s[pos.i] as string) >= '0' &&
    (s[pos.i] as string) <= '9'
  );
  return val < from || val > to ? null : val;
}

function names(s: string, pos: { i: number }, full: string[]): number | null {
  const rest = s.slice(pos.i).toLowerCase();
  for (let k = 0; k < full.length; k++) {
    const name = (full[k] as string).toLowerCase();
    for (const candidate of [name, name.slice(0, 3)]) {
      if (rest.startsWith(candidate)) {
        pos.i += candidate.length;
        return k;
      }
    }
  }
  return null;
}

function parseInto(s: string, fmt: string, pos: { i: number }, st: ParseState): boolean {
  const tm = st.tm;
  for (let f = 0; f < fmt.length; f++) {
    const fc = fmt[f] as string;
    if (isSpace(fc)) {
      while (isSpace(s[pos.i])) pos.i++;
      continue;
    }
    if (fc !== '%') {
      if (s[pos.i] !== fc) return false;
      pos.i++;
      continue;
    }
    const c = fmt[++f];
    let v: number | null;
    switch (c) {
      case '%':
        if (s[pos.i] !== '%') return false;
        pos.i++;
        break;
      case 'Y':
        if ((v = number(s, pos, 0, 9999, 4)) === null) return false;
        tm[0] = v;
        st.wantXday = true;
        break;
      case 'y':
        if ((v = number(s, pos, 0, 99, 2)) === null) return false;
        tm[0] = v >= 69 ? 1900 + v : 2000 + v;
        st.wantXday = true;
        break;
      case 'm':
        if ((v = number(s, pos, 1, 12, 2)) === null) return false;
        tm[1] = v - 1;
        st.haveMon = true;
        st.wantXday = true;
        break;
      case 'd':
      case 'e':
        if ((v = number(s, pos, 1, 31, 2)) === null) return false;
        tm[2] = v;
        st.haveMday = true;
        st.wantXday = true;
        break;
      case 'H':
        if ((v = number(s, pos, 0, 23, 2)) === null) return false;
        tm[3] = v;
        break;
      case 'M':
        if ((v = number(s, pos, 0, 59, 2)) === null) return false;
        tm[4] = v;
        break;
      case 'S':
        if ((v = number(s, pos, 0, 61, 2)) === null) return false;
        tm[5] = v;
        break;
      case 'j':
        if ((v = number(s, pos, 1, 366, 3)) === null) return false;
        tm[7] = v - 1;
        st.haveYday = true;
        break;
      case 'b':
      case 'B':
      case 'h':
        if ((v = names(s, pos, MONTHS)) === null) return false;
        tm[1] = v;
        st.haveMon = true;
        st.wantXday = true;
        break;
      case 'a':
      case 'A':
        if ((v = names(s, pos, DAYS)) === null) return false;
        tm[6] = v;
        st.haveWday = true;
        break;
      case 'n':
      case 't':
        while (isSpace(s[pos.i])) pos.i++;
        break;
      case 'T':
      case 'D':
      case 'F':
      case 'R':
        if (!parseInto(s, { T: '%H:%M:%S', D: '%m/%d/%y', F: '%Y-%m-%d', R: '%H:%M' }[c], pos, st)) return false;
        break;
      case 'Z':
        // glibc reads a zone name and ignores it.
        while (isSpace(s[pos.i])) pos.i++;
        while (s[pos.i] !== undefined && !isSpace(s[pos.i])) pos.i++;
        break;
      case 'z': {
        // +hh, +hhmm, +hh:mm or Z; the offset is parsed and then ignored by jq.
        while (isSpace(s[pos.i])) pos.i++;
        if (s[pos.i] === 'Z') {
          pos.i++;
          break;
        }
        if (s[pos.i] !== '+' && s[pos.i] !== '-') return false;
        pos.i++;
        let n = 0;
        let val = 0;
        while (n < 4 && /[0-9]/.test(s[pos.i] ?? '')) {
          val = val * 10 + (s.charCodeAt(pos.i++) - 48);
          n++;
          if (s[pos.i] === ':' && n === 2 && /[0-9]/.test(s[pos.i + 1] ?? '')) pos.i++;
        }
        if (n !== 2 && (n !== 4 || val % 100 >= 60)) return false;
        break;
      }
      default:
        throw unsupported(`strptime conversion %${c ?? ''}`);
    }
  }
  return true;
}

/** glibc day_of_the_week, in C integer arithmetic. */
function dayOfTheWeek(tm: Tm): number {
  const tmYear = tm[0] - 1900;
  const corrYear = 1900 + tmYear - (tm[1] < 2 ? 1 : 0);
  const q = Math.trunc(corrYear / 4);
  const wday =
    -473 +
    365 * (tmYear - 70) +
    q -
    Math.trunc(q / 25) +
    (q % 25 < 0 ? 1 : 0) +
    Math.trunc(Math.trunc(q / 25) / 4) +
    (MON_YDAY[0][tm[1]] as number) +
    tm[2] -
    1;
  return ((wday % 7) + 7) % 7;
}

export function strptime(v: Json, fmt: Json): Json {
  if (typeof v !== 'string' || typeof fmt !== 'string')
    throw new Raised('strptime/1 requires string inputs and arguments');
  // jq 1.6 presets weekday 8 and day-of-year 367; glibc overwrites them when the text has a date.
  const st: ParseState = {
    tm: [1900, 0, 0, 0, 0, 0, 8, 367],
    wantXday: false,
    haveWday: false,
    haveYday: false,
    haveMon: false,
    haveMday: false,
  };
  const pos = { i: 0 };
  const ok = parseInto(v, fmt, pos, st);
  const rest = v.slice(pos.i);
  if (!ok || (rest !== '' && !isSpace(rest[0]))) throw new Raised(`date "${v}" does not match format "${fmt}"`);
  const tm = st.tm;
  if (st.wantXday && !st.haveWday) {
    if (!(st.haveMon && st.haveMday) && st.haveYday) {
      const table = monYday(tm[0]);
      let t = 0;
      while (t < 13 && (table[t] as number) <= tm[7]) t++;
      // Day 366 of a common year makes glibc read past its month table.
      if (t > 12) throw unsupported('strptime %j of day 366 in a common year');
      if (!st.haveMon) tm[1] = t - 1;
      if (!st.haveMday) tm[2] = tm[7] - (table[t - 1] as number) + 1;
    }
    tm[6] = dayOfTheWeek(tm);
  }
  if (st.wantXday && !st.haveYday) tm[7] = (monYday(tm[0])[tm[1]] as number) + tm[2] - 1;
  const out: Json[] = [...tm];
  if (rest !== '') out.push(rest);
  return out;
}
