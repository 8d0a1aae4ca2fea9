import { readFileSync } from 'node:fs';

/** What a command may touch of its process; tests run the CLI as a real process instead. */
export interface Cli {
  out(text: string): void;
  err(text: string): void;
  readStdin(): string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type Command = (args: string[], cli: Cli) => Promise<number>;

export function processCli(): Cli {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    readStdin: () => {
      try {
        return readFileSync(0, 'utf8');
      } catch {
        return '';
      }
    },
    env: process.env,
    cwd: process.cwd(),
  };
}
