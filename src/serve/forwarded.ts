/**
 * The CLI commands a running `baton serve` may answer (serve/cli-protocol.ts), apart from the
 * protocol so that main.ts, which every CLI call runs, loads nothing else for it: the hot paths'
 * reads and writes, none of which reads standard input or looks at a terminal in any form (their
 * code: cli/commands/{get,update,set,append,consume,clear}.ts, cli/value-command.ts). Only `get`
 * writes nothing, so only it may run again in process once a server has taken it.
 */
export const FORWARDED: ReadonlySet<string> = new Set(['get', 'update', 'set', 'append', 'consume', 'clear']);
export const READ_ONLY: ReadonlySet<string> = new Set(['get']);
