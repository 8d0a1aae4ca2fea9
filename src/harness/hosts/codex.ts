/**
 * OpenAI Codex CLI: events, payloads and decisions mirror Claude Code's. What differs is the
 * tools: file edits arrive as `apply_patch` (paths read from the patch envelope in
 * `tool_input.command`), and shell commands as `Bash` with a string command (0.171, recorded in
 * test/fixtures/hosts/codex-0.171.0/); older versions sent `shell`/`exec_command`/`local_shell`,
 * possibly as an argv array.
 */
import { hostEvents } from '../hooks/events.js';
import type { HostAdapter } from '../hooks/types.js';
import { CLAUDE_TOOLS, renderClaudeLike } from './claude.js';
import { normalize, type ToolTable } from './normalize.js';

const TOOLS: ToolTable = {
  tools: {
    ...CLAUDE_TOOLS.tools,
    apply_patch: { name: 'apply_patch', kind: 'edit' },
    shell: { name: 'Bash', kind: 'bash' },
    exec_command: { name: 'Bash', kind: 'bash' },
    local_shell: { name: 'Bash', kind: 'bash' },
    container_exec: { name: 'Bash', kind: 'bash' },
  },
};

const EVENTS = hostEvents('codex');

export const codex: HostAdapter = {
  name: 'codex',
  event: (hostEvent) => EVENTS[hostEvent],
  input: (hostEvent, raw) => normalize(hostEvent, hostEvent, raw, TOOLS),
  render: renderClaudeLike,
};
