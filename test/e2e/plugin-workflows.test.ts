/**
 * The plugin's skills, commands and subagents in the real Claude Code (offline, scripted model):
 * they are offered to the model, loading one gives the model its text, and a session that follows
 * them step by step ends in the state they promise. The scripted steps are the files' own commands
 * (read out of the Markdown by ../plugin/instructions.ts), so a session follows what the file says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLUGIN, actionsOf, bodyOf, pluginFiles } from '../plugin/instructions.js';
import { session, toolResults, trustedProject, type Session } from './claude-session.js';
import { startMockModel, type MockModel, type Turn } from './mock-model.js';

/** The shell commands of a file's blocks, as Bash calls, in order (`from`..`to` of its blocks). */
function bashSteps(file: string, args = '', from = 0, to = Infinity): Turn[] {
  return actionsOf(file, args)
    .filter((action) => action.kind === 'run' && action.block >= from && action.block < to)
    .map((action) => ({
      tool: 'Bash',
      input: { command: (action as { command: string }).command, description: `${file}: a step` },
    }));
}

/** Every request the model got, as one string, and the tool results by the order of their tool calls. */
function sent(model: MockModel): string {
  return JSON.stringify(model.requests.map((request) => request.body));
}

async function runSession(
  t: { after(fn: () => unknown): void },
  project: string,
  home: string,
  prompt: string,
  main: Turn[],
  agents: Record<string, Turn[]> = {},
): Promise<{ run: Session; model: MockModel }> {
  const model = await startMockModel([...main, { text: 'Done.' }], agents);
  t.after(() => model.close());
  const run = await session(project, home, model, prompt, ['--plugin-dir', PLUGIN]);
  assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  assert.ok(run.result, `not JSON: ${run.stdout}`);
  return { run, model };
}

/** Each tool call's result, in the order the calls were made (main and subagents). */
function resultsInOrder(model: MockModel): { name: string; input: any; text: string; isError: boolean }[] {
  const results = toolResults(model);
  const calls = new Map<string, { name: string; input: any }>();
  for (const request of model.requests)
    for (const message of request.body?.messages ?? [])
      if (message.role === 'assistant' && Array.isArray(message.content))
        for (const block of message.content)
          if (block.type === 'tool_use') calls.set(block.id, { name: block.name, input: block.input });
  return [...calls.entries()]
    .sort(([a], [b]) => Number(a.split('_').at(-1)) - Number(b.split('_').at(-1)))
    .map(([id, call]) => ({ ...call, text: results.get(id)?.text ?? '', isError: results.get(id)?.isError ?? false }));
}

test(
  'the skills, commands and agents are offered to the model, and loading a skill gives the model its text',
  { timeout: 120_000 },
  async (t) => {
    const p = trustedProject();
    t.after(p.cleanup);
    const { model } = await runSession(t, p.project, p.home, 'orchestrate this goal', [
      { tool: 'Skill', input: { skill: 'baton:orchestrate' } },
    ]);
    const first = JSON.stringify(model.turns()[0]?.body ?? {});
    for (const name of [
      'baton:handoff',
      'baton:orchestrate',
      'baton:task-start',
      'baton:task-wave',
      'baton:task-phase',
      'baton:task-verify',
      'baton:task-done',
      'baton:test-writer',
      'baton:implementer',
    ])
      assert.ok(first.includes(`${name}: `), `${name} is offered in the first request`);
    // The MCP tools the files name are the names Claude Code gives the plugin's server's tools.
    const named = new Set(
      pluginFiles().flatMap((file) => [...bodyOf(file).matchAll(/mcp__plugin_baton_baton__[a-z_]+/g)].map((m) => m[0])),
    );
    assert.ok(named.size >= 3, [...named].join());
    for (const tool of named) assert.ok(first.includes(tool), `${tool} is a tool Claude Code offers`);
    const later = JSON.stringify(model.turns()[1]?.body ?? {});
    assert.ok(
      later.includes(JSON.stringify(bodyOf('skills/orchestrate/SKILL.md').trim()).slice(1, -1)),
      'the request after the Skill call holds the skill text',
    );
  },
);

test(
  'a session following the handoff skill (start, record, the next phase looks its input up, gate) ends with the phase gated and its output found',
  { timeout: 180_000 },
  async (t) => {
    const handoff = 'skills/handoff/SKILL.md';
    const contract = actionsOf(handoff).find((action) => action.kind === 'file');
    assert.ok(contract?.kind === 'file' && contract.path === 'workflow.yaml');
    const p = trustedProject({ 'workflow.yaml': contract.content });
    t.after(p.cleanup);
    // The agent writes its evidence before it records it, as the skill says.
    const writes: Turn[] = [
      { tool: 'Write', input: { file_path: join(p.project, 'docs/spec.md'), content: '# Login\n' } },
      { tool: 'Write', input: { file_path: join(p.project, '.ai_log/phase-0-pm-notes.md'), content: 'notes\n' } },
    ];
    const steps = bashSteps(handoff);
    const { run, model } = await runSession(t, p.project, p.home, 'run the login pipeline', [
      { tool: 'Skill', input: { skill: 'baton:handoff' } },
      ...writes,
      ...steps,
    ]);
    const results = resultsInOrder(model);
    const bash = results.filter((r) => r.name === 'Bash');
    assert.equal(bash.length, steps.length, 'every step ran');
    for (const r of bash) assert.equal(r.isError, false, `${r.input.command}: ${r.text}`);
    const inputs = bash.find((r) => r.input.command.includes('phase inputs') && r.input.command.includes('1-build'));
    assert.match(inputs?.text ?? '', /spec = docs\/spec\.md {2}\(from 0-spec\)/);
    assert.match(bash.find((r) => r.input.command.startsWith('baton gate'))?.text ?? '', /gate 0-spec: pass/);
    const state = JSON.parse(readFileSync(join(p.project, '.ai_log', 'session-login.json'), 'utf8'));
    assert.equal(state.spec, 'docs/spec.md');
    assert.equal(state.phases['0-spec'].status, 'done');
    assert.equal(state.phases['0-spec'].gate.result, 'pass');
    assert.deepEqual(state.phases['0-spec'].evidence, ['.ai_log/phase-0-pm-notes.md']);
    assert.deepEqual(run.result.permission_denials ?? [], []);
    assert.ok(sent(model).includes('Phase agent: on START, read your inputs'), 'the skill text reached the model');
  },
);

test(
  'a session following the task commands through a RED wave (test writer) and a GREEN wave (implementer) ends verified, both waves done, next_hint /baton:task-done',
  { timeout: 300_000 },
  async (t) => {
    const start = 'commands/task-start.md';
    const config = actionsOf(start, 'add-login').find((action) => action.kind === 'file');
    assert.ok(config?.kind === 'file' && config.path === 'baton.config.json');
    const p = trustedProject({ 'baton.config.json': config.content });
    t.after(p.cleanup);
    const testFile = join(p.project, 'tests', 'login.test.sh');
    const sourceFile = join(p.project, 'src', 'login.sh');
    const testText = 'grep -q login src/login.sh\n';
    const sourceText = 'echo login\n';
    const wave = 'commands/task-wave.md';
    const agent = (name: string, type: string, prompt: string) => ({
      tool: 'Agent',
      input: {
        description: prompt,
        subagent_type: type,
        prompt: `[[agent:${name}]] ${prompt}`,
        run_in_background: false,
      },
    });
    const main: Turn[] = [
      ...bashSteps(start, 'add-login'),
      { tool: 'Skill', input: { skill: 'baton:task-wave', args: 'the login tests' } },
      ...bashSteps(wave, 'the login tests', 0, 2),
      agent('test-writer', 'baton:test-writer', 'RED: pin that src/login.sh prints login, in tests/login.test.sh'),
      ...bashSteps(wave, '', 2, 3),
      { tool: 'Skill', input: { skill: 'baton:task-phase', args: 'GREEN' } },
      ...bashSteps('commands/task-phase.md', 'GREEN'),
      { tool: 'Skill', input: { skill: 'baton:task-wave', args: 'the login code' } },
      ...bashSteps(wave, 'the login code', 0, 1),
      // The wave command's example, for the second wave: its number and the implementer.
      {
        tool: 'Bash',
        input: {
          command: `baton task wave-start 2 1 --total 2 --agents '["baton:implementer"]'`,
          description: 'wave 2',
        },
      },
      agent('implementer', 'baton:implementer', 'GREEN: make tests/login.test.sh pass'),
      ...bashSteps(wave, '', 2, 4),
      { tool: 'Skill', input: { skill: 'baton:task-verify' } },
      ...bashSteps('commands/task-verify.md', '', 0, 1),
      { tool: 'Bash', input: { command: 'sh tests/login.test.sh', description: "the project's tests" } },
      ...bashSteps('commands/task-verify.md', '', 2, 3),
    ];
    // Each subagent checks the phase as its definition says, tries what the phase forbids (denied),
    // then does its part and returns the line the wave barrier counts.
    const agents: Record<string, Turn[]> = {
      'test-writer': [
        ...bashSteps('agents/test-writer.md'),
        { tool: 'Write', input: { file_path: sourceFile, content: sourceText } },
        { tool: 'Write', input: { file_path: testFile, content: testText } },
        { text: 'DONE|tests/login.test.sh' },
      ],
      implementer: [
        ...bashSteps('agents/implementer.md'),
        { tool: 'Write', input: { file_path: testFile, content: 'true\n' } },
        { tool: 'Write', input: { file_path: sourceFile, content: sourceText } },
        { text: 'DONE|src/login.sh' },
      ],
    };
    const { run, model } = await runSession(t, p.project, p.home, '/baton:task-start add-login', main, agents);

    const results = resultsInOrder(model);
    const bash = results.filter((r) => r.name === 'Bash');
    for (const r of bash) assert.equal(r.isError, false, `${r.input.command}: ${r.text}`);
    assert.match(bash.find((r) => r.input.command === 'sh tests/login.test.sh')?.text ?? '', /login|no output/);
    const phases = bash.filter((r) => r.input.command === 'baton task get .tdd_phase').map((r) => r.text.trim());
    assert.deepEqual(phases, ['RED', 'GREEN', 'GREEN'], 'test writer saw RED; the phase command and implementer GREEN');

    // The gates held inside the subagents: source in RED and the test in GREEN were denied.
    const denials = (run.result.permission_denials ?? []).map((d: any) => d.tool_input?.file_path);
    assert.deepEqual(denials, [sourceFile, testFile], JSON.stringify(run.result.permission_denials));
    assert.equal(readFileSync(testFile, 'utf8'), testText, 'the test is the test writer’s');
    assert.equal(readFileSync(sourceFile, 'utf8'), sourceText, 'the source is the implementer’s');

    const doc = JSON.parse(readFileSync(join(p.project, '.claude', 'state', 'current-task.json'), 'utf8'));
    assert.equal(doc.slug, 'add-login');
    assert.equal(doc.tdd_phase, 'GREEN');
    assert.equal(doc.wave, 2);
    assert.deepEqual(doc.wave_status, { '1': 'done', '2': 'done' });
    assert.deepEqual(doc.active_agents, []);
    assert.equal(doc.status, 'verified');
    assert.equal(doc.next_hint, '/baton:task-done');
    assert.equal(readFileSync(join(p.project, '.claude', 'state', 'phase'), 'utf8'), 'GREEN\n');
    const waveFile = JSON.parse(readFileSync(join(p.project, '.claude', 'state', 'wave.json'), 'utf8'));
    assert.deepEqual([waveFile.wave, waveFile.done, waveFile.status], [2, 1, 'ready-for-next-wave']);
    assert.ok(
      sent(model).includes(
        bodyOf(wave, 'the login code')
          .split('\n')
          .find((line) => line.startsWith('Plan the wave'))!,
      ),
    );
  },
);

test(
  'a session following the orchestrate skill (start, a launch with a brief, the return landed, the lint) ends with the goal owned by the session, Now idle and the Done line stamped',
  { timeout: 180_000 },
  async (t) => {
    const p = trustedProject({ 'baton.config.json': '{ "profile": "orchestrate" }\n' });
    t.after(p.cleanup);
    const skill = 'skills/orchestrate/SKILL.md';
    const goal = join(p.home, '.claude', 'orchestrate', 'login-flow');
    const steps = bashSteps(skill);
    const land = steps.findIndex((step) => 'tool' in step && String(step.input.command).startsWith('baton goal land'));
    const close = steps.findIndex((step) => 'tool' in step && String(step.input.command) === 'baton goal pause');
    assert.ok(land > 0 && close > land);
    const { run, model } = await runSession(
      t,
      p.project,
      p.home,
      'drive the login flow goal',
      [
        { tool: 'Skill', input: { skill: 'baton:orchestrate' } },
        // Start and list; the brief; the launch recorded (goal now); then the agent runs.
        ...steps.slice(0, land - 1),
        {
          tool: 'Write',
          input: { file_path: join(goal, 'briefs', 'tests-1.md'), content: 'Write the login form tests.\n' },
        },
        steps[land - 1] as Turn,
        {
          tool: 'Agent',
          input: {
            description: 'login form tests',
            subagent_type: 'general-purpose',
            prompt: `[[agent:tests-1]] Brief: ${join(goal, 'briefs', 'tests-1.md')}`,
            run_in_background: false,
          },
        },
        ...steps.slice(land, close),
      ],
      {
        'tests-1': [
          { tool: 'Write', input: { file_path: join(goal, 'reports', 'tests-1.md'), content: 'tests written\n' } },
          { text: 'reports/tests-1.md' },
        ],
      },
    );
    const bash = resultsInOrder(model).filter((r) => r.name === 'Bash');
    for (const r of bash) assert.equal(r.isError, false, `${r.input.command}: ${r.text}`);
    const lint = bash.find((r) => r.input.command.startsWith('baton lint'));
    assert.ok(lint, 'the lint ran');
    assert.doesNotMatch(lint.text, /lint: /, 'no findings after the landing');
    const state = readFileSync(join(goal, 'state.md'), 'utf8');
    assert.match(state, /## Now\n- \(nothing running\)\n/);
    assert.match(state, /\n- \d{4}-\d\d-\d\d \d\d:\d\dZ login form tests written \(reports\/tests-1\.md\)\n$/);
    // The Stop hook of the turn that ran `baton goal start` claimed the goal for this session.
    const pointer = readFileSync(join(p.home, '.claude', 'orchestrate', 'active'), 'utf8');
    assert.match(pointer, new RegExp(`session=${run.result.session_id}`));
  },
);
