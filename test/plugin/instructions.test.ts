/**
 * Every command the plugin's skills, commands and agent definitions tell an agent to run is run
 * here, exactly as written (`$ARGUMENTS` replaced as Claude Code replaces it), in a scratch
 * project, in the order a session following them would: through the plugin's own PreToolUse hook
 * (a deny fails the step; a sandbox rewrite is what runs) and with the plugin's bin/baton on PATH.
 * A skill can then never teach a command that fails, or one the gates refuse in its own phase.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  actionsOf,
  mcpExamples,
  mcpTools,
  namesACommand,
  pluginFiles,
  runCommand,
  scratchProject,
  subagentStop,
  writeAsAgent,
  type Project,
} from './instructions.js';

interface Agent {
  type: string;
  /** What the agent writes with its Write tool before it returns (the hook must allow each). */
  writes: Record<string, string>;
  reply: string;
}

interface Step {
  file: string;
  /** What the user typed after the command: Claude Code puts it in place of `$ARGUMENTS`. */
  args?: string;
  /** Files the agent writes (Write tool) before it follows the file: the evidence a skill records. */
  writes?: Record<string, string>;
  /** Subagents that run and return after this many of the file's shell blocks. */
  agents?: { afterBlock: number; run: Agent[] };
  /** The state the file promises once followed. */
  then?: (project: Project) => void;
}

function task(project: Project): Record<string, unknown> {
  return JSON.parse(readFileSync(join(project.dir, '.claude', 'state', 'current-task.json'), 'utf8'));
}

const TEST_FILE = 'tests/login.test.sh';
const SOURCE_FILE = 'src/login.sh';

// One list per workflow, in the order a session follows the files; every plugin file is in one.
const WORKFLOWS: Record<string, Step[]> = {
  'a pipeline run (handoff skill)': [
    {
      file: 'skills/handoff/SKILL.md',
      writes: { 'docs/spec.md': '# Login\n', '.ai_log/phase-0-pm-notes.md': 'notes\n' },
      then: (project) => {
        const run = JSON.parse(readFileSync(join(project.dir, '.ai_log', 'session-login.json'), 'utf8'));
        assert.equal(run.spec, 'docs/spec.md');
        assert.equal(run.phases['0-spec'].status, 'done');
        assert.equal(run.phases['0-spec'].gate.result, 'pass');
      },
    },
  ],
  'a goal (orchestrate skill)': [{ file: 'skills/orchestrate/SKILL.md' }],
  'work split across subagents (board skill)': [
    {
      file: 'skills/board/SKILL.md',
      then: (project) => {
        const board = JSON.parse(readFileSync(join(project.dir, '.claude', 'state', 'board.json'), 'utf8'));
        assert.ok(JSON.stringify(board).includes('login-e2e'));
      },
    },
  ],
  'parallel work (board skill)': [
    {
      file: 'skills/board/SKILL.md',
      then: (project) => {
        const board = JSON.parse(readFileSync(join(project.dir, '.claude', 'state', 'board.json'), 'utf8'));
        assert.equal(board.items['login-api'].status, 'done');
        // Run as the session's own agent (no agent id in the hook's payload), which the board calls main.
        assert.equal(board.items['login-api'].done_by, 'main');
        assert.equal(board.items['login-ui'].status, 'open');
      },
    },
  ],
  'a task through RED and GREEN (task commands, agents, and the task skills)': [
    {
      file: 'commands/task-start.md',
      args: 'add-login',
      then: (project) => {
        const doc = task(project);
        assert.equal(doc.tdd_phase, 'RED');
        assert.equal(doc.next_hint, '/baton:task-wave');
      },
    },
    { file: 'skills/status/SKILL.md' },
    {
      file: 'commands/task-wave.md',
      args: 'the login tests',
      agents: {
        afterBlock: 2,
        run: [{ type: 'baton:test-writer', writes: { [TEST_FILE]: 'grep -q login src/login.sh\n' }, reply: `DONE|${TEST_FILE}` }],
      },
      then: (project) => assert.deepEqual(task(project).wave_status, { '1': 'done' }),
    },
    { file: 'agents/test-writer.md' },
    { file: 'commands/task-phase.md', args: 'GREEN', then: (project) => assert.equal(task(project).tdd_phase, 'GREEN') },
    { file: 'agents/implementer.md', writes: { [SOURCE_FILE]: 'echo login\n' } },
    { file: 'skills/gate/SKILL.md' },
    {
      file: 'commands/task-verify.md',
      then: (project) => {
        const doc = task(project);
        assert.equal(doc.status, 'verified');
        assert.equal(doc.next_hint, '/baton:task-done');
      },
    },
    { file: 'skills/doctor/SKILL.md' },
    { file: 'skills/history/SKILL.md' },
    { file: 'commands/task-done.md' },
  ],
};

function follow(project: Project, step: Step): void {
  for (const [path, content] of Object.entries(step.writes ?? {})) {
    const wrote = writeAsAgent(project, path, content);
    assert.ok(wrote.ok, `${step.file}: writing ${path}: ${wrote.detail}`);
  }
  let blocksDone = 0;
  const agentsAt = step.agents?.afterBlock;
  const launch = () => {
    step.agents?.run.forEach((agent, index) => {
      for (const [path, content] of Object.entries(agent.writes)) {
        const wrote = writeAsAgent(project, path, content);
        assert.ok(wrote.ok, `${step.file}: ${agent.type} writing ${path}: ${wrote.detail}`);
      }
      const stopped = subagentStop(project, agent.type, `agent-${index}`, agent.reply);
      assert.ok(stopped.ok, `${step.file}: SubagentStop of ${agent.type}: ${stopped.detail}`);
    });
  };
  let lastBlock = -1;
  for (const action of actionsOf(step.file, step.args)) {
    if (action.kind === 'run' && action.block >= 0 && action.block !== lastBlock) {
      if (lastBlock >= 0) blocksDone++;
      lastBlock = action.block;
      if (blocksDone === agentsAt) launch();
    }
    const where = `plugin/${step.file}:${action.line}`;
    if (action.kind === 'run') {
      const outcome = runCommand(project, action.command);
      assert.ok(outcome.ok, `${where}: \`${action.command}\` ${outcome.detail}`);
    } else if (action.kind === 'file') {
      const wrote = writeAsAgent(project, action.path, action.content);
      assert.ok(wrote.ok, `${where}: writing ${action.path}: ${wrote.detail}`);
    } else if (action.kind === 'json') {
      assert.doesNotThrow(() => JSON.parse(action.content), `${where}: the JSON does not parse`);
    } else {
      assert.ok(namesACommand(project, action.words), `${where}: \`${action.text}\` names no baton command`);
    }
  }
  if (lastBlock >= 0) blocksDone++;
  if (agentsAt !== undefined) assert.ok(blocksDone >= agentsAt, `${step.file} has fewer than ${agentsAt} shell blocks`);
  step.then?.(project);
}

describe('plugin instructions', () => {
  it('every skill, command and agent file is followed by a workflow below', () => {
    const followed = new Set(Object.values(WORKFLOWS).flatMap((steps) => steps.map((step) => step.file)));
    assert.deepEqual(
      pluginFiles().filter((file) => !followed.has(file)),
      [],
      'a skill, command or agent file that no workflow follows: add it to WORKFLOWS in test/plugin/instructions.test.ts',
    );
  });

  it('every MCP call a file shows names a tool baton mcp serves, with arguments its schema takes', (t) => {
    const project = scratchProject();
    t.after(project.cleanup);
    const tools = mcpTools(project);
    const examples = pluginFiles().flatMap((file) => mcpExamples(file).map((example) => ({ file, ...example })));
    assert.ok(examples.length >= 6, `${examples.length} examples`);
    for (const { file, tool, args, line } of examples) {
      const where = `plugin/${file}:${line}: ${tool} ${args}`;
      const schema = tools.get(tool);
      assert.ok(schema, `${where}: baton mcp has no tool ${tool}`);
      const call = JSON.parse(args) as Record<string, unknown>;
      for (const key of Object.keys(call)) assert.ok(key in schema.properties, `${where}: ${tool} takes no '${key}'`);
      for (const key of schema.required ?? []) assert.ok(key in call, `${where}: ${tool} needs '${key}'`);
      for (const [key, value] of Object.entries(call)) {
        const allowed = schema.properties[key]?.enum as unknown[] | undefined;
        if (allowed) assert.ok(allowed.includes(value), `${where}: ${key} must be one of ${allowed.join(', ')}`);
      }
    }
  });

  for (const [name, steps] of Object.entries(WORKFLOWS)) {
    it(`${name}: every command runs as written and ends in the promised state`, (t) => {
      const project = scratchProject();
      t.after(project.cleanup);
      for (const step of steps) follow(project, step);
    });
  }
});
