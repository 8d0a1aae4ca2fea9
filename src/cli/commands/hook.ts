import { BUILTIN_EVENTS, configEvents } from '../../harness/profiles/events.js';
import { parsePayload, readPayload } from '../../harness/stdin.js';
import type { HostAdapter } from '../../harness/types.js';
import { projectContext } from '../../project/context.js';
import type { Cli } from '../context.js';

/**
 * `baton hook <Event> [--profile NAME] [--host claude|codex|gemini|cursor]`: reads one payload,
 * answers in the host's protocol. This file is the cheap front: it reads stdin, the config file
 * and a table of which events the profile handles, and returns for any other event before the
 * engine (schemas, documents, policy) is imported. A hook never fails its host: every odd input
 * exits 0. The `orchestrate` profile keeps its own entry point.
 */
type OrchestrateProfile = { default: (event: string, stdin: string, cli: Cli) => Promise<number> };

const HOSTS: Record<string, () => Promise<HostAdapter>> = {
  claude: async () => (await import('../../harness/hosts/claude.js')).claude,
  codex: async () => (await import('../../harness/hosts/codex.js')).codex,
  gemini: async () => (await import('../../harness/hosts/gemini.js')).gemini,
  cursor: async () => (await import('../../harness/hosts/cursor.js')).cursor,
};

export default async function hook(args: string[], cli: Cli): Promise<number> {
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const event = args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '--profile' && args[i - 1] !== '--host');
  const stdin = await readPayload();
  const profileFlag = flag('--profile');
  if (profileFlag === 'orchestrate') return orchestrate(event, stdin, cli);
  const loadHost = HOSTS[flag('--host') ?? 'claude'];
  if (!event || !loadHost) return 0;
  const adapter = await loadHost();
  const canonical = adapter.event(event);
  if (!canonical) return 0;
  const { data, garbage } = parsePayload(stdin);
  // Cursor names its workspace in the payload; BATON_ROOT / CLAUDE_PROJECT_DIR still win.
  const roots = data.workspace_roots;
  const workspace = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  // The same discovery as `baton task` and the compat scripts, so the gate reads the state they write.
  const { file, config, profile, root } = projectContext({ cwd: cli.cwd, env: cli.env, profile: profileFlag, workspace });
  if (file.state === 'missing' && profile === undefined) return 0;
  if (profile === 'orchestrate') return orchestrate(event, stdin, cli);
  const handled = new Set([...(BUILTIN_EVENTS[profile ?? ''] ?? []), ...configEvents(config)]);
  if (file.state !== 'invalid' && !handled.has(canonical)) return 0;
  const { runHook } = await import('../../harness/run-hook.js');
  const rendered = await runHook({
    adapter, hostEvent: event, raw: data, garbage, config, root, env: cli.env,
    ...(profile !== undefined ? { profile } : {}),
    ...(file.state === 'invalid' ? { configError: file.error } : {}),
  });
  if (rendered.stdout) cli.out(rendered.stdout);
  if (rendered.stderr) cli.err(rendered.stderr);
  return rendered.code;
}

async function orchestrate(event: string | undefined, stdin: string, cli: Cli): Promise<number> {
  if (!event) return 0;
  return ((await import('../../harness/profiles/orchestrate.js')) as OrchestrateProfile).default(event, stdin, cli);
}
