/**
 * `transcript-text.sh <transcript.jsonl> [--since ISO] [--tail N]`: a transcript as plain
 * text for recovery questions. Lines that are not JSON are skipped, never fatal.
 */
import type { CommandIo } from '../core/command-io.js';
import { BatonError, EXIT, type ErrorCode } from '../core/errors.js';
import { isReadRefusal, readFileBounded, TRANSCRIPT_FILE_MAX_BYTES } from '../fs/bounded-read.js';

/** transcript-text.sh's refusals: its exit code and its bare message line. */
function refusal(code: ErrorCode, exitCode: number, message: string): BatonError {
  return new BatonError(code, message, { compat: { exitCode, lead: '' } });
}

/** The reader's arguments, as the CLI parsed them from `baton goal`'s definition (its `since` and `tail`). */
export interface TranscriptArgs {
  positionals: string[];
  since?: string | undefined;
  tail?: string | undefined;
}

interface Options {
  file: string;
  since: string;
  tail: number | undefined;
}

/** transcript-text.sh's own rules: one file, any other word refused (exit 2), no file exit 1. */
function readOptions(args: TranscriptArgs): Options {
  let file: string | undefined;
  for (const arg of args.positionals) {
    if (file === undefined && !arg.startsWith('--')) file = arg;
    else throw refusal('usage', EXIT.usage, `unknown argument: ${arg}`);
  }
  if (file === undefined)
    throw refusal('usage', EXIT.refused, 'usage: transcript-text.sh <transcript.jsonl> [--since <ISO>] [--tail <N>]');
  const tail = args.tail === undefined ? undefined : Math.max(0, Number.parseInt(args.tail, 10) || 0);
  return { file, since: args.since ?? '', tail };
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

function describe(input: Record<string, unknown>): string {
  const first = [input.description, input.file_path, input.command, input.prompt].find(
    (v) => v !== undefined && v !== null,
  );
  return text(first).replace(/\n/g, ' ').slice(0, 160);
}

function render(record: Record<string, unknown>, since: string): string[] {
  const stamp = record.timestamp;
  if (stamp === undefined || stamp === null || text(stamp) < since) return [];
  const t = `${text(stamp).slice(0, 19)}Z`;
  const content = (record.message as { content?: unknown } | undefined)?.content;
  const blocks = Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
  if (record.type === 'user' && record.isMeta !== true) {
    const body =
      typeof content === 'string'
        ? content
        : blocks
            .filter((b) => b?.type === 'text')
            .map((b) => text(b.text))
            .join('\n');
    return body === '' ? [] : [`[${t}] USER: ${body}`];
  }
  if (record.type !== 'assistant') return [];
  const out: string[] = [];
  for (const block of blocks) {
    if (block?.type === 'text') out.push(`[${t}] CLAUDE: ${text(block.text)}`);
    else if (block?.type === 'tool_use')
      out.push(`[${t}] TOOL ${text(block.name)}: ${describe((block.input ?? {}) as Record<string, unknown>)}`);
  }
  return out;
}

export default async function transcriptText(args: TranscriptArgs, cli: CommandIo): Promise<number> {
  const options = readOptions(args);
  let raw: string;
  try {
    raw = readFileBounded(
      options.file,
      TRANSCRIPT_FILE_MAX_BYTES,
      `transcript ${options.file}`,
      'pass a shorter transcript (split it by lines)',
      { stream: true },
    );
  } catch (error) {
    if (isReadRefusal(error)) throw error;
    throw refusal('io', EXIT.refused, `cannot read ${options.file}`);
  }
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as unknown;
      if (record && typeof record === 'object' && !Array.isArray(record))
        out.push(...render(record as Record<string, unknown>, options.since));
    } catch {
      // a broken line (a crash mid-write) is skipped
    }
  }
  let lines = out.join('\n').split('\n');
  if (out.length === 0) lines = [];
  if (options.tail !== undefined) lines = options.tail === 0 ? [] : lines.slice(-options.tail);
  if (lines.length > 0) cli.out(`${lines.join('\n')}\n`);
  return 0;
}
