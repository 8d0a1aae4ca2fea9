/**
 * What a command may touch of its process: its output, input, environment and working folder.
 * The CLI hands over the real ones (cli/process-io.ts), the MCP server and in-process callers their
 * own, so the features that take one never reach for `process` themselves.
 */
export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** All of standard input, refused (`too_large`) past `maxBytes` (default: fs/bounded-read.ts STDIN_MAX_BYTES). */
  readStdin: (maxBytes?: number) => string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Where the output travels in a bounded answer (a command `baton serve` runs for a CLI): whether
   * `text` still fits in it. A command whose output would not fit calls `handBack` before it
   * changes anything, and the caller runs it in its own process instead.
   */
  answer?: { fits(text: string): boolean; handBack(): never };
  /** The CLI script this process runs (`process.argv[1]`), for commands that start it again; absent outside the CLI. */
  script?: string;
}
