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

/**
 * A shell command of a protected phase comes back rewritten into baton's OS sandbox, as for Claude
 * Code. Codex 0.171 applies `updatedInput` only with `permissionDecision: "allow"` (with none, or
 * "ask", it reports the hook as failed and runs the original command). Measured in its TUI with
 * `approval_policy = "on-request"`: "allow" skips none of Codex's own checks; the rewritten command
 * still runs inside Codex's sandbox and still needs the user's approval where Codex asks for one.
 */
export const codex: HostAdapter = {
  name: 'codex',
  rewritesShell: true,
  event: (hostEvent) => EVENTS[hostEvent],
  input: (hostEvent, raw) => normalize(hostEvent, hostEvent, raw, TOOLS),
  render: (input, outcome) => renderClaudeLike(input, outcome, 'allow'),
};
