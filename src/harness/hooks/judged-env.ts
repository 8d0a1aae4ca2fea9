/**
 * The environment a hook's judgement reads, as one text: `baton hook` in a session judges with that
 * session's environment, and a resident `baton serve` with the one it was started with. The shell
 * client (plugin/lib/serve-client.bash) writes the same text from its own environment and sends
 * its digest; the server answers only a client whose digest is its own, and any other judges in
 * process (docs/serve.md, "Whose environment").
 *
 * What counts, each read somewhere on the hook path (test/harness/judged-env.unit.test.ts runs
 * every event of every host with an environment that records what is read, and fails on a name
 * outside these):
 * - every `BATON_*` variable (store, project, locks, host id, debug log, sandbox, clock, value
 *   limits, the orchestrate plugin's root, and any added later) but the client's own switches;
 * - every `STATE_*` variable (the goal hooks' limits);
 * - the names below: where `~` is and the git config a shell command would read (HOME), which
 *   programs a command finds (PATH: bubblewrap, git), the debug log's and sandbox's folder
 *   (TMPDIR), and what the hooks of other hosts and the Stop checks read;
 * - the project root the client found the server in, and whether BATON_ROOT or CLAUDE_PROJECT_DIR is
 *   set: their values name that root, and root discovery reads nothing else of them. So the server
 *   judges a client with either set or unset (judgedEnvVariants), with the same answer as in process.
 * A variable a handler hands whole to a program it runs (a Stop check's script) is not in it: such
 * a program sees the server's environment (docs/serve.md says so).
 */
import { createHash } from 'node:crypto';

/** The client's own switches: the wrapper reads them, the judgement never does. */
const CLIENT_ONLY = new Set(['BATON_SERVE', 'BATON_SERVE_SKIP']);
const PRESENCE_ONLY = ['BATON_ROOT', 'CLAUDE_PROJECT_DIR'];
const PREFIXES = ['BATON_', 'STATE_'];
export const JUDGED_NAMES = [
  'CLAUDE_SCRATCHPAD_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_TRUST_WORKSPACE',
  'HOME',
  'PATH',
  'TMPDIR',
  'TYPECHECK_DISABLE',
  'TYPECHECK_WARN_ONLY',
] as const;

/** Whether the judgement may read `name` (what the recording test checks against). */
export function isJudged(name: string): boolean {
  return (
    PRESENCE_ONLY.includes(name) ||
    (JUDGED_NAMES as readonly string[]).includes(name) ||
    (PREFIXES.some((prefix) => name.startsWith(prefix)) && !CLIENT_ONLY.has(name))
  );
}

const RS = '\x1e';

/**
 * `ROOT=root`, then each prefix's variables in byte order (as bash lists `${!BATON_@}` under
 * LC_ALL=C), then the names above in their order, then the presence flags: each entry followed by
 * RS, the digest taken over the text and a newline (as `sha256sum <<<"$text"` reads it).
 */
export function judgedEnvText(root: string, env: NodeJS.ProcessEnv): string {
  let text = `ROOT=${root}${RS}`;
  for (const prefix of PREFIXES) {
    const names = Object.keys(env)
      .filter((name) => name.startsWith(prefix) && !CLIENT_ONLY.has(name) && !PRESENCE_ONLY.includes(name))
      .sort();
    for (const name of names) if (env[name] !== undefined) text += `${name}=${env[name]}${RS}`;
  }
  for (const name of JUDGED_NAMES) if (env[name] !== undefined) text += `${name}=${env[name]}${RS}`;
  for (const name of PRESENCE_ONLY) if (env[name]) text += `${name}${RS}`;
  return text;
}

export function judgedEnvDigest(root: string, env: NodeJS.ProcessEnv): string {
  return createHash('sha256')
    .update(`${judgedEnvText(root, env)}\n`)
    .digest('hex');
}

/**
 * The environments a server for `root` judges with, by the digest of each: its own, with BATON_ROOT
 * and CLAUDE_PROJECT_DIR each naming `root` or unset. A client that found the server in `root`
 * names that root with them, or (neither set) stands in it, so each variant finds the root the
 * client's own `baton hook` finds, and reads, as it would, whether a workspace or a marker may move it.
 */
export function judgedEnvVariants(root: string, env: NodeJS.ProcessEnv): Map<string, NodeJS.ProcessEnv> {
  const variants = new Map<string, NodeJS.ProcessEnv>();
  for (const batonRoot of [true, false])
    for (const projectDir of [true, false]) {
      const variant = {
        ...env,
        BATON_ROOT: batonRoot ? root : undefined,
        CLAUDE_PROJECT_DIR: projectDir ? root : undefined,
      };
      if (!batonRoot) delete variant.BATON_ROOT;
      if (!projectDir) delete variant.CLAUDE_PROJECT_DIR;
      variants.set(judgedEnvDigest(root, variant), variant);
    }
  return variants;
}
