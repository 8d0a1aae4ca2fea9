/**
 * Builds the host-neutral HookInput from a payload. Hosts differ in tool names and in where the
 * file path or command sits; each adapter passes its table of tool names and this function reads
 * every known location. Missing, null or mistyped fields read as empty, never as an error.
 */
import { isAbsolute, resolve } from 'node:path';
import { patchPaths } from '../shell/apply-patch.js';
import type { HookInput, ToolKind } from '../hooks/types.js';

export interface ToolTable {
  /** Host tool name -> canonical name and kind. */
  tools: Record<string, { name: string; kind: ToolKind }>;
}

export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function normalize(event: string, hostEvent: string, raw: Record<string, unknown>, table: ToolTable): HookInput {
  const toolInput = record(raw.tool_input ?? raw.toolInput ?? raw.tool_args);
  const hostTool = text(raw.tool_name ?? raw.toolName);
  const known = table.tools[hostTool];
  const argv = toolInput.command;
  // Codex runs a shell argv ["apply_patch", patch] itself, as its structured edit: decided by path.
  const patchCall =
    known?.kind === 'bash' && Array.isArray(argv) && argv.length === 2 && PATCH_PROGRAMS.has(text(argv[0]));
  const kind: ToolKind = patchCall ? 'edit' : (known?.kind ?? 'other');
  const where = shellCwd(toolInput, text(raw.cwd));
  return {
    event,
    hostEvent,
    raw,
    toolName: patchCall ? 'apply_patch' : (known?.name ?? hostTool),
    toolKind: kind,
    filePaths: patchCall
      ? inFolder(patchPaths(text((argv as unknown[])[1])), where)
      : kind === 'edit'
        ? editedPaths(toolInput, where)
        : [],
    command: kind === 'bash' ? commandText(toolInput.command ?? raw.command) : '',
    prompt: text(raw.user_prompt) || text(raw.prompt),
    agentId: text(raw.agent_id),
    agentType: text(raw.agent_type),
    lastMessage: text(raw.last_assistant_message),
    stopHookActive: raw.stop_hook_active === true || raw.stop_hook_active === 'true',
    source: text(raw.source),
    sessionId: text(raw.session_id) || text(raw.conversation_id),
    cwd: kind === 'bash' ? where : text(raw.cwd),
  };
}

const PATCH_PROGRAMS = new Set(['apply_patch', 'applypatch']);

/** A patch names its files relative to where it is applied: the call's folder, not the project root. */
function inFolder(paths: string[], cwd: string): string[] {
  return cwd && isAbsolute(cwd) ? paths.map((path) => (isAbsolute(path) ? path : resolve(cwd, path))) : paths;
}

function editedPaths(input: Record<string, unknown>, cwd: string): string[] {
  const single =
    text(input.file_path) ||
    text(input.path) ||
    text(input.notebook_path) ||
    text(input.absolute_path) ||
    text(input.target_file);
  if (single) return [single];
  const patch = text(input.patch) || text(input.input) || commandText(input.command);
  return patch ? inFolder(patchPaths(patch), cwd) : [];
}

/**
 * A command given as a string, or as argv (`["bash", "-lc", "..."]`, `["apply_patch", "..."]`,
 * Codex) as the shell text that runs exactly that argv: each word quoted, so the shell analysis
 * sees `bash -lc '...'` and parses the inner text, and a patch stays one argument.
 */
function commandText(value: unknown): string {
  if (Array.isArray(value)) return value.map((word) => quote(text(word))).join(' ');
  return text(value);
}

function quote(word: string): string {
  return /^[A-Za-z0-9_/.:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Where a shell tool runs: its own folder (Codex `workdir`, Gemini `directory`) against the session's cwd. */
function shellCwd(input: Record<string, unknown>, cwd: string): string {
  const own = text(input.workdir) || text(input.directory) || text(input.dir_path) || text(input.cwd);
  if (!own) return cwd;
  return isAbsolute(own) || !cwd ? own : resolve(cwd, own);
}
