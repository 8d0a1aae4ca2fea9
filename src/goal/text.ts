/**
 * state.md as text: `\n`-separated lines where a last line without a newline still counts,
 * the marker line and the section reader the lint uses. Pure functions, no I/O.
 */
export const END_HEAD = '<!-- end head -->';

/** Lines of a text file; a file saved with CRLF endings (a Windows editor) reads the same. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** `eol` is the file's own line ending (see usesCrlf), kept when it is rewritten. */
export function joinLines(lines: string[], eol = '\n'): string {
  return lines.length === 0 ? '' : `${lines.join(eol)}${eol}`;
}

export function usesCrlf(text: string): boolean {
  return text.includes('\r\n');
}

/**
 * Whitespace-only, ASCII whitespace as bash's [[:space:]] has it. JS `\s` would also take U+00A0,
 * and byte 0xA0 of a byte-string line (state-file.ts) with it: the lint and the rewrite must agree.
 */
export function isBlank(line: string): boolean {
  return /^[ \t\n\v\f\r]*$/.test(line);
}

/** Reads marker field K from the first three lines; empty when absent. */
export function readMarkerField(lines: string[], key: string): string {
  const pattern = new RegExp(`<!--[ \\t]*state:.*\\s${key}=(\\S*)`);
  for (const line of lines.slice(0, 3)) {
    const match = pattern.exec(line);
    if (match) return match[1] ?? '';
  }
  return '';
}

/** Sets K=V on line 1 only; a line 1 with neither `K=` nor ` -->` is left as it is. */
export function setMarkerField(lines: string[], key: string, value: string): string[] {
  const first = lines[0];
  if (first === undefined) return lines;
  let updated = first;
  const existing = new RegExp(`(\\s${key}=)\\S*`);
  if (existing.test(first)) updated = first.replace(existing, (_m, head: string) => head + value);
  else if (first.includes(' -->')) updated = first.replace(' -->', () => ` ${key}=${value} -->`);
  return updated === first ? lines : [updated, ...lines.slice(1)];
}

function isSectionHeading(line: string, name: string): boolean {
  return line === `## ${name}` || line.startsWith(`## ${name} `);
}

/**
 * S(name) of 4.0: the lines after the first heading of that name up to the next other heading or
 * the end-of-head line; a repeated heading of the same name is skipped, not a terminator.
 */
export function sectionLines(lines: string[], name: string): string[] {
  const start = lines.findIndex((line) => isSectionHeading(line, name));
  if (start < 0) return [];
  const out: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (isSectionHeading(line, name)) continue;
    if (line.startsWith('## ') || line === END_HEAD) break;
    out.push(line);
  }
  return out;
}

/** `- YYYY-MM-DD HH:MMZ ` stamped Done line. */
export const DONE_STAMP = /^- (\d{4}-\d{2}-\d{2} [0-2]\d:[0-5]\dZ) /;

/** An agent entry of Now: `- [` and at least three ` -> ` after it. */
export interface AgentEntry {
  label: string;
  brief: string;
  report: string;
}

export function parseAgentEntry(line: string): AgentEntry | undefined {
  if (!line.startsWith('- [')) return undefined;
  const fields = line.slice(3).split(' -> ');
  if (fields.length < 4) return undefined;
  const n = fields.length;
  return { label: fields[n - 3] as string, brief: fields[n - 2] as string, report: fields[n - 1] as string };
}

/** `~` at the start means HOME (as bash's `${p/#\~/$HOME}` does). */
export function expandHome(path: string, home: string): string {
  return path.startsWith('~') ? home + path.slice(1) : path;
}
