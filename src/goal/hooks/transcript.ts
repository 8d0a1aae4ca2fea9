/**
 * The Stop hook's view of the turn: the last 3000 transcript lines, parsed one by one
 * (broken lines skipped), from the last real user prompt on, as a list of tool calls.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegular, tooLarge, TRANSCRIPT_TAIL_MAX_BYTES, type ReadLabel } from '../../fs/bounded-read.js';

export const TAIL_LINES = 3000;
const CHUNK = 1 << 20;

/** Reads backwards only as far as needed: transcripts reach hundreds of MB. */
export function tailLines(path: string, count: number = TAIL_LINES): string[] {
  const label: ReadLabel = {
    what: `the last ${count} lines of transcript ${path}`,
    fix: 'a turn writes far less; start a new session (/clear)',
  };
  const fd = openRegular(path, label);
  try {
    const size = fstatSync(fd).size;
    const chunks: Buffer[] = [];
    let newlines = 0;
    let position = size;
    while (position > 0 && newlines <= count) {
      if (size - position >= TRANSCRIPT_TAIL_MAX_BYTES)
        throw tooLarge(label.what, TRANSCRIPT_TAIL_MAX_BYTES, label.fix);
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, position);
      for (const byte of chunk) if (byte === 10) newlines++;
      chunks.unshift(chunk);
    }
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-count);
  } finally {
    closeSync(fd);
  }
}

export interface ToolCall {
  name: string;
  filePath: string;
  command: string;
}

type Rec = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function isRealPrompt(record: Rec): boolean {
  if (record.type !== 'user' || record.isMeta === true) return false;
  const content = (record.message as Rec | undefined)?.content;
  if (typeof content === 'string') return true;
  return Array.isArray(content) && content.some((block) => (block as Rec | null)?.type === 'text');
}

export function parseRecords(lines: string[]): Rec[] {
  const records: Rec[] = [];
  for (const line of lines) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) records.push(value as Rec);
    } catch {
      // a half-written or corrupt line is skipped
    }
  }
  return records;
}

export function turnCalls(records: Rec[]): ToolCall[] {
  let start = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    if (isRealPrompt(records[i] as Rec)) {
      start = i;
      break;
    }
  }
  const calls: ToolCall[] = [];
  for (const record of records.slice(start)) {
    if (record.type !== 'assistant') continue;
    const content = (record.message as Rec | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as (Rec | null)[]) {
      if (block?.type !== 'tool_use') continue;
      const input = (block.input ?? {}) as Rec;
      calls.push({ name: str(block.name), filePath: str(input.file_path), command: str(input.command) });
    }
  }
  return calls;
}
