import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { EVENT_NAMES, hostEvents } from '../../src/harness/hooks/events.js';
import { answerHook } from '../../src/harness/hooks/hook-front.js';
import { isJudged, judgedEnvText } from '../../src/harness/hooks/judged-env.js';
import { batonInProcess } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { recordingEnv } from '../helpers/recording-env.js';

/**
 * What `baton serve` compares before it judges a shell client's hook (harness/hooks/judged-env.ts)
 * must cover every variable the judgement reads: every event of every host, on the profiles that
 * handle the most, with an environment that records each name asked of it. A name read that is
 * not in the list would let a server judge with its own value of it: this test then fails.
 */

const TASK = '.claude/state/current-task.json';

const payloads = (dir: string) => [
  {
    session_id: 's1',
    agent_id: 'a1',
    hook_event_name: 'x',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, 'tests/test_a.py'), content: 'x\n' },
    cwd: dir,
    prompt: 'go on',
    stop_hook_active: false,
    workspace_roots: [dir],
  },
  {
    session_id: 's1',
    hook_event_name: 'x',
    tool_name: 'Bash',
    tool_input: { command: 'git status && echo x > ~/notes.py' },
    command: 'git status',
    cwd: dir,
  },
];

describe('the environment a hook is judged with', () => {
  it('every name any event of any host reads is in the judged list', async (t) => {
    const tree = tempTree({ '.tmp/.keep': '', 'home/.keep': '' });
    t.after(tree.cleanup);
    const seen = new Set<string>();
    const projects: [string, object][] = [
      ['eneo', { profile: 'eneo' }],
      ['tdd', { profile: 'tdd' }],
      ['orchestrate', { profile: 'orchestrate' }],
      ['config', { audit: true, sessionStart: true }],
    ];
    for (const [name, config] of projects) {
      const dir = join(tree.dir, name);
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('baton.config.json', JSON.stringify(config));
      write(TASK, `${JSON.stringify({ slug: 'demo', lane: 'fast', tdd_phase: 'GREEN', next_hint: 'x' })}\n`);
      write('.claude/state/phase', 'GREEN\n');
      write('.claude/state/board.json', '{}\n');
      const home = join(tree.dir, 'home');
      if (name === 'orchestrate') {
        const started = await batonInProcess(['goal', 'start', 'demo', 'Ship the demo'], {
          cwd: dir,
          env: { HOME: home },
        });
        assert.equal(started.code, 0, started.stderr);
      }
      for (const sandbox of [{ BATON_SANDBOX: 'off' }, {}] as Record<string, string>[])
        for (const host of ['claude', 'codex', 'gemini', 'cursor'] as const)
          for (const event of Object.keys(hostEvents(host)))
            for (const payload of payloads(dir)) {
              const { env, read } = recordingEnv({
                HOME: home,
                PATH: process.env.PATH ?? '',
                TMPDIR: join(tree.dir, '.tmp'),
                BATON_DEBUG_LOG: join(tree.dir, 'debug.log'),
                CLAUDE_PROJECT_DIR: dir,
                ...sandbox,
              });
              await answerHook({
                event,
                host,
                payload: JSON.stringify({ ...payload, hook_event_name: event }),
                cwd: dir,
                env,
                goalHooks: async () => (await import('../../src/goal/hooks/goal-handlers.js')).runGoalHook,
              });
              for (const name of read) seen.add(name);
            }
    }
    assert.ok(EVENT_NAMES.length > 5);
    // The recorder sees them, so a silent pass would be a recorder that sees nothing.
    for (const name of ['HOME', 'BATON_SANDBOX', 'BATON_ROOT', 'CLAUDE_PROJECT_DIR']) assert.ok(seen.has(name), name);
    assert.deepEqual(
      [...seen].filter((name) => !isJudged(name)),
      [],
      'read on the hook path but not in src/harness/hooks/judged-env.ts',
    );
  });

  it("the text is the shell client's: prefixes in byte order, the names, the root's flags; the client's own switches left out", () => {
    const RS = '\x1e';
    assert.equal(
      judgedEnvText('/p', {
        BATON_b: '1',
        BATON_A: '',
        BATON_SERVE: '1',
        BATON_SERVE_SKIP: '1',
        BATON_ROOT: '/p',
        STATE_X: '2',
        HOME: '/h',
        PATH: '/bin',
        CLAUDE_PROJECT_DIR: '/p',
        UNRELATED: 'x',
      }),
      [
        'ROOT=/p',
        'BATON_A=',
        'BATON_b=1',
        'STATE_X=2',
        'HOME=/h',
        'PATH=/bin',
        'BATON_ROOT',
        'CLAUDE_PROJECT_DIR',
        '',
      ].join(RS),
    );
  });
});
