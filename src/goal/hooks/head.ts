/**
 * Head extraction for injection: lines above the first line containing the end marker,
 * at most 40 lines and 4000 bytes, with a notice when the head was cut or has no end marker.
 */
import { END_HEAD } from '../text.js';

const HEAD_LINES = 40;
const HEAD_BYTES = 4000;
const TRUNCATED = '[head truncated at 40 lines - move detail below the end-of-head line]';
const NO_END = `[no "${END_HEAD}" line - showing the first 40 lines only]`;

/** The first `count` lines of text as written (a last line keeps its missing newline). */
function firstLines(text: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return text;
    at = next + 1;
  }
  return text.slice(0, at);
}

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
function capBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export function extractHead(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => line.includes(END_HEAD));
  if (end < 0) return `${capBytes(firstLines(text, HEAD_LINES), HEAD_BYTES)}\n${NO_END}\n`;
  const head = capBytes(firstLines(text, Math.min(end, HEAD_LINES)), HEAD_BYTES);
  return end > HEAD_LINES ? `${head}\n${TRUNCATED}\n` : head;
}
