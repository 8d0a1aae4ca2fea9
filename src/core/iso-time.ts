/**
 * Date.prototype.toISOString's text, from the UTC fields. V8's toISOString looks up the host's
 * time zone on its first call in a process, though its answer is UTC: tzset reads /etc/localtime
 * and ICU builds its zone, ~0.3 ms of CPU in every CLI write (strace showed it; the UTC getters
 * read nothing). Years outside 0-9999, and an invalid date (RangeError), are left to toISOString.
 */
export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DDTHH:MM:SSZ`, UTC to the second: the stamp of documents, runs, goal files and audit records. */
export function isoSeconds(date: Date = new Date()): string {
  return `${isoString(date).slice(0, 19)}Z`;
}
