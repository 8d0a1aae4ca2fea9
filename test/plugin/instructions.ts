/**
 * What the plugin's skills, commands and agent definitions tell an agent to do, read out of their
 * Markdown in document order, and a runner that does it the way Claude Code would: every shell
 * command through the plugin's PreToolUse hook (a deny fails, a sandbox rewrite is what runs),
 * every file the agent writes through the same hook as a Write. Shared by the test that runs every
 * file (instructions.test.ts) and the end-to-end sessions that follow them in the real Claude Code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { parseBlocks } from '../docs/blocks.js';

export const PLUGIN = join(ROOT, 'plugin');
const PLUGIN_BATON = join(PLUGIN, 'bin', 'baton');
const SHELL = new Set(['sh', 'bash', 'shell']);

/** One thing a file tells the agent to do, in the file's order. */
export type Action =
  /** A shell command (one logical line of a shell block), to run exactly as written. */
  | { kind: 'run'; command: string; line: number; block: number }
  /** A file the text gives whole (a block whose first tag is its path): the user or agent writes it. */
  | { kind: 'file'; path: string; content: string; line: number }
  /** A JSON block shown for reading: it must parse. */
  | { kind: 'json'; content: string; line: number }
  /** A command named in the prose with placeholders (`baton goal resume <slug>`): its words must be baton's. */
  | { kind: 'names'; words: string[]; text: string; line: number };

/** The plugin's agent-facing files, relative to plugin/: skills, commands, agent definitions. */
export function pluginFiles(): string[] {
  const md = (dir: string) =>
    readdirSync(join(PLUGIN, dir))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `${dir}/${name}`);
  const skills = readdirSync(join(PLUGIN, 'skills'))
    .sort()
    .map((name) => `skills/${name}/SKILL.md`);
  return [...skills, ...md('commands'), ...md('agents')];
}

/** The file's text as the model receives it: front matter off, `$ARGUMENTS` replaced as Claude Code does. */
export function bodyOf(file: string, args = ''): string {
  const text = readFileSync(join(PLUGIN, file), 'utf8');
  const end = text.startsWith('---\n') ? text.indexOf('\n---\n', 4) + 5 : 0;
  return text.slice(end).replaceAll('$ARGUMENTS', args);
}

/** The body with the front matter's lines left blank, so that line numbers are the file's. */
function numberedBody(file: string, args: string): string {
  const body = bodyOf(file, args);
  const total = readFileSync(join(PLUGIN, file), 'utf8').split('\n').length;
  return '\n'.repeat(total - body.split('\n').length) + body;
}

function tokens(text: string): string[] {
  return text.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
}

/**
 * A command in prose is named, not run, when it is only command words (`baton task init`) or holds
 * a placeholder: `<x>`, `...`, `A|B`, or an upper-case word (`--rev N`).
 */
function isName(text: string): boolean {
  const words = tokens(text).slice(1);
  return (
    words.every((word) => /^[a-z][a-z-]*$/.test(word)) ||
    words.some((word) => !/^['"]/.test(word) && (/[<>|]|\.\.\./.test(word) || /^[A-Z][A-Z_]*$/.test(word)))
  );
}

/** The file's actions in document order: shell blocks split into commands, and `baton ...` spans of the prose. */
export function actionsOf(file: string, args = ''): Action[] {
  const body = numberedBody(file, args);
  const lines = body.split('\n');
  // Lines inside fences (fences included) are the blocks'; the rest is prose.
  const inBlock = new Set<number>();
  let fence: string | undefined;
  lines.forEach((text, index) => {
    const open = /^(```+)/.exec(text)?.[1];
    if (fence !== undefined || open !== undefined) inBlock.add(index + 1);
    if (fence === undefined) fence = open;
    else if (text.trimEnd() === fence) fence = undefined;
  });
  const actions: { at: number; action: Action }[] = [];
  parseBlocks(body, file).forEach((block, index) => {
    const path = block.tags[0];
    if (SHELL.has(block.lang)) {
      // One logical line is one command: what an agent runs as one Bash call.
      let pending = '';
      block.code.split('\n').forEach((text, offset) => {
        const joined = pending + text;
        if (joined.endsWith('\\')) return void (pending = `${joined.slice(0, -1)}\n`);
        pending = '';
        if (joined.trim() === '' || joined.trim().startsWith('#')) return;
        actions.push({
          at: block.line + offset + 1,
          action: { kind: 'run', command: joined, line: block.line + offset + 1, block: index },
        });
      });
    } else if (path && /[./]/.test(path)) {
      actions.push({ at: block.line, action: { kind: 'file', path, content: block.code, line: block.line } });
    } else if (block.lang === 'json') {
      actions.push({ at: block.line, action: { kind: 'json', content: block.code, line: block.line } });
    }
  });
  lines.forEach((text, index) => {
    const line = index + 1;
    if (inBlock.has(line)) return;
    for (const match of text.matchAll(/`(baton [^`]+)`/g)) {
      const span = match[1] as string;
      const words = tokens(span)
        .slice(1)
        .filter((_, i, all) => all.slice(0, i + 1).every((w) => /^[a-z][a-z-]*$/.test(w)))
        .slice(0, 2);
      actions.push({
        at: line + (match.index ?? 0) / 1e6,
        action: isName(span)
          ? { kind: 'names', words, text: span, line }
          : { kind: 'run', command: span, line, block: -1 },
      });
    }
  });
  return actions.sort((a, b) => a.at - b.at).map((entry) => entry.action);
}

/** A scratch project: a git repository, an empty HOME, the plugin's bin/ on PATH (as Claude Code puts it). */
export function scratchProject() {
  const tree = tempTree({ 'home/.keep': '' });
  const dir = join(tree.dir, 'project');
  mkdirSync(dir);
  spawnSync('git', ['init', '-q', dir]);
  const env = cleanEnv({
    HOME: join(tree.dir, 'home'),
    PATH: `${join(PLUGIN, 'bin')}:${process.env.PATH}`,
    NO_COLOR: '1',
    CLAUDE_PROJECT_DIR: dir,
    CLAUDE_PLUGIN_ROOT: PLUGIN,
  });
  return { dir, env, cleanup: tree.cleanup };
}

export type Project = ReturnType<typeof scratchProject>;

export interface Outcome {
  ok: boolean;
  /** What the hook said when it denied, or the command's exit and output. */
  detail: string;
  stdout: string;
}

function hook(project: Project, event: string, payload: Record<string, unknown>) {
  return spawnSync('sh', [PLUGIN_BATON, 'hook', event], {
    cwd: project.dir,
    env: project.env,
    input: JSON.stringify({ hook_event_name: event, session_id: 'plugin-instructions', cwd: project.dir, ...payload }),
    encoding: 'utf8',
  });
}

/** The PreToolUse answer: a deny's reason, or the command to run in place of the call's own. */
function preToolUse(project: Project, tool: string, input: Record<string, unknown>) {
  const answer = hook(project, 'PreToolUse', { tool_name: tool, tool_input: input, tool_use_id: 'toolu_plugin' });
  if (answer.status === 2) return { denied: answer.stderr.trim() };
  if (answer.status !== 0) return { denied: `the hook exited ${answer.status}: ${answer.stderr.trim()}` };
  if (answer.stdout.trim() === '') return {};
  const output = JSON.parse(answer.stdout).hookSpecificOutput ?? {};
  if (output.permissionDecision === 'deny' || output.permissionDecision === 'ask')
    return { denied: `${output.permissionDecision}: ${output.permissionDecisionReason}` };
  return { command: output.updatedInput?.command as string | undefined };
}

/** Runs one command as the Bash tool would: through the hook, then bash. */
export function runCommand(project: Project, command: string): Outcome {
  const gate = preToolUse(project, 'Bash', { command, description: 'a step of a plugin instruction' });
  if (gate.denied !== undefined) return { ok: false, detail: `denied by the hook: ${gate.denied}`, stdout: '' };
  const result = spawnSync('bash', ['-c', gate.command ?? command], { cwd: project.dir, env: project.env, encoding: 'utf8' });
  return {
    ok: result.status === 0,
    detail: `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    stdout: result.stdout,
  };
}

/** Writes a file as the Write tool would: the hook decides first. */
export function writeAsAgent(project: Project, path: string, content: string): Outcome {
  const file = join(project.dir, path);
  const gate = preToolUse(project, 'Write', { file_path: file, content });
  if (gate.denied !== undefined) return { ok: false, detail: `denied by the hook: ${gate.denied}`, stdout: '' };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return { ok: true, detail: '', stdout: '' };
}

/** A subagent's return as Claude Code reports it: SubagentStop with its last message. */
export function subagentStop(project: Project, agentType: string, agentId: string, message: string): Outcome {
  const result = hook(project, 'SubagentStop', {
    agent_type: agentType,
    agent_id: agentId,
    last_assistant_message: message,
    stop_hook_active: false,
  });
  return { ok: result.status === 0, detail: `exit ${result.status}: ${result.stderr}`, stdout: result.stdout };
}

/** Does `baton <words> --help` know the command (a template's words name a real command)? */
export function namesACommand(project: Project, words: string[]): boolean {
  const result = spawnSync('sh', [PLUGIN_BATON, ...words, '--help'], { cwd: project.dir, env: project.env });
  return result.status === 0;
}

/** A call of one of baton's MCP tools that a file shows: the tool named last before it, and its arguments. */
export interface McpExample {
  tool: string;
  args: string;
  line: number;
}

/** The `{...}` spans of the prose, each with the `mcp__plugin_baton_baton__<tool>` named last before it. */
export function mcpExamples(file: string): McpExample[] {
  const body = numberedBody(file, '');
  const examples: McpExample[] = [];
  let tool = '';
  body.split('\n').forEach((text, index) => {
    for (const match of text.matchAll(/mcp__plugin_baton_baton__([a-z_]+)|`(\{[^`]*\})`/g)) {
      if (match[1]) tool = match[1];
      else if (tool) examples.push({ tool, args: match[2] as string, line: index + 1 });
    }
  });
  return examples;
}

/** The tools `baton mcp` serves, with their input schemas (tools/list over stdio). */
export function mcpTools(project: Project): Map<string, { properties: Record<string, any>; required?: string[] }> {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  const result = spawnSync('sh', [PLUGIN_BATON, 'mcp'], {
    cwd: project.dir,
    env: project.env,
    input: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    encoding: 'utf8',
  });
  const listed = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .find((message) => message.id === 2);
  return new Map(listed.result.tools.map((tool: any) => [tool.name, tool.inputSchema]));
}
