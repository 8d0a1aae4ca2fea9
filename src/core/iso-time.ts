/** `YYYY-MM-DDTHH:MM:SSZ`, UTC to the second: the stamp of documents, runs, goal files and audit records. */
export function isoSeconds(date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
