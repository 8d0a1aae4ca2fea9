import { readFileSync } from 'node:fs';

/** One fenced code block of a Markdown page, with the fence's info string split into words. */
export interface Block {
  file: string;
  line: number;
  lang: string;
  tags: string[];
  code: string;
  /** The expected stdout: the ```text output block right after this one. */
  output?: string;
}

/** The fenced blocks of a page, in order; a ```text output block is attached to the block before it. */
export function readBlocks(file: string, name = file): Block[] {
  return parseBlocks(readFileSync(file, 'utf8'), name);
}

/** The fenced blocks of Markdown text (readBlocks without the file). */
export function parseBlocks(text: string, name: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let open: { fence: string; info: string[]; line: number; body: string[] } | undefined;
  let lastEnd = -2;
  lines.forEach((text, index) => {
    if (open) {
      if (text.trimEnd() === open.fence) {
        const [lang = '', ...tags] = open.info;
        const code = open.body.join('\n') + '\n';
        const previous = blocks.at(-1);
        if (lang === 'text' && tags.includes('output') && previous && open.line - lastEnd <= 2) previous.output = code;
        else blocks.push({ file: name, line: open.line, lang, tags, code });
        lastEnd = index + 1;
        open = undefined;
      } else open.body.push(text);
      return;
    }
    const fence = /^(```+)\s*(.*)$/.exec(text);
    if (fence)
      open = {
        fence: fence[1] as string,
        info: (fence[2] as string).trim().split(/\s+/).filter(Boolean),
        line: index + 1,
        body: [],
      };
  });
  if (open) throw new Error(`${name}:${open.line}: code block is never closed`);
  return blocks;
}

/** Does the output match the expected text, where a line `...` stands for any number of lines? */
export function matchesOutput(actual: string, expected: string): boolean {
  const want = expected
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => line.trimEnd());
  const got = actual
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => line.trimEnd());
  const match = (w: number, g: number): boolean => {
    if (w === want.length) return g === got.length;
    if (want[w] === '...') {
      for (let skip = g; skip <= got.length; skip++) if (match(w + 1, skip)) return true;
      return false;
    }
    return g < got.length && want[w] === got[g] && match(w + 1, g + 1);
  };
  return match(0, 0);
}
