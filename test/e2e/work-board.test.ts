/**
 * The work board in the real Claude Code (offline, scripted model; docs/work-board.md): an
 * orchestrator adds five items with paths and launches three background subagents, which claim
 * from the ready queue, write their items' files, finish them and claim again until nothing is
 * left. The scripted model chooses the interleaving (./mock-model.ts holds an answer until the
 * agents reach a point), so what is asserted never depends on which process the machine ran first:
 * the board's history, the files, and what the hooks told the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baton, ROOT } from '../helpers/cli.js';
import { claudeEnv, drawUntil, printArgs, runClaude, trust, trustedProject } from './claude-session.js';
import { callsOf, startMockModel, type Step, type Turn } from './mock-model.js';

const PLUGIN = join(ROOT, 'plugin');

/** The plan: three items that may run at once, and two that wait for them. */
const ITEMS = [
  { id: 'api', title: 'API endpoint', paths: ['src/api/**'], after: [], file: 'src/api/index.ts' },
  { id: 'ui', title: 'UI form', paths: ['src/ui/**'], after: [], file: 'src/ui/form.ts' },
  { id: 'db', title: 'Schema', paths: ['src/db/**'], after: [], file: 'src/db/schema.sql' },
  { id: 'docs', title: 'API docs', paths: ['docs/api/**'], after: ['api'], file: 'docs/api/README.md' },
  { id: 'e2e', title: 'End-to-end test', paths: ['tests/e2e/**'], after: ['ui', 'db'], file: 'tests/e2e/flow.sh' },
];
const AGENTS = ['one', 'two', 'three'];

/** Resolves once `count` arrivals have been counted. */
function meeting(count: number) {
  let arrive = () => {};
  const all = new Promise<void>((resolve) => {
    let left = count;
    arrive = () => {
      if (--left === 0) resolve();
    };
  });
  return { arrive, all };
}

function opened() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { open, promise };
}

const bash = (command: string, description: string): Turn => ({ tool: 'Bash', input: { command, description } });

function boardProject() {
  return trustedProject({ 'baton.config.json': `${JSON.stringify({ stop: { boardGate: 'pending' } })}\n` });
}

/**
 * The status line as Claude Code runs it: the `statusLine` command `baton install claude` writes
 * (read from its dry run, so no second set of hooks joins the plugin's), through `sh -c`, with the
 * status JSON on stdin.
 */
function statusLine(project: string, home: string): string {
  const dry = baton(['install', 'claude', '--project', '--dry-run'], { cwd: project });
  assert.equal(dry.code, 0, dry.stderr);
  const command = JSON.parse(dry.stdout).statusLine.command as string;
  const payload = {
    session_id: 'e2e-board',
    cwd: project,
    model: { id: 'claude-mock', display_name: 'Mock' },
    workspace: { current_dir: project, project_dir: project },
    version: '2.1.328',
  };
  const env = { ...claudeEnv(home), CLAUDE_PROJECT_DIR: project, NO_COLOR: '1' };
  const run = spawnSync('sh', ['-c', command], { cwd: project, env, input: JSON.stringify(payload), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

interface Claimed {
  id: string;
  agent: string;
}

/** Every claim in the board's history, oldest first; who wrote each `done`; each claim removed without one. */
function boardHistory(project: string): {
  claims: Claimed[];
  done: Map<string, string>;
  released: { id: string; writer: string }[];
} {
  const history = baton(['history', '.claude/state/board.json', '--limit', '1000', '--json'], { cwd: project });
  assert.equal(history.code, 0, history.stderr);
  const revisions = history.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .reverse();
  const claims: Claimed[] = [];
  const done = new Map<string, string>();
  const released: { id: string; writer: string }[] = [];
  for (const revision of revisions) {
    const finished = new Set<string>();
    for (const op of revision.patch ?? []) {
      const status = /^\/items\/([^/]+)\/status$/.exec(op.path);
      if (status && op.value === 'done') {
        done.set(status[1]!, revision.writer);
        finished.add(status[1]!);
      }
    }
    for (const op of revision.patch ?? []) {
      const claim = /^\/items\/([^/]+)\/claim$/.exec(op.path);
      if (claim && op.op === 'add') claims.push({ id: claim[1]!, agent: op.value.agent });
      if (claim && op.op === 'remove' && !finished.has(claim[1]!))
        released.push({ id: claim[1]!, writer: revision.writer });
    }
  }
  return { claims, done, released };
}

/** Resolves when `check` holds, looking again every 50 ms, or once `over` says the session ended. */
async function until(check: () => boolean, over: () => boolean): Promise<void> {
  while (!check() && !over()) await new Promise((resolve) => setTimeout(resolve, 50));
}

test(
  'the work board in the real Claude Code: five items added, three background subagents claim distinct ones, a write to a file another agent holds is denied naming the holder, the Stop is held while they work, the status line names the holders, a claim ends with its agent',
  { timeout: 660_000 },
  async (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    const log = join(p.dir, 'hooks.log');
    const boardFile = join(p.project, '.claude', 'state', 'board.json');
    // Each agent's first claim (the item, and the agent id the board knows it by), and the first request it got.
    const first = new Map<string, { id: string; agent: string }>();
    const briefed = new Map<string, string>();
    const claimed = meeting(AGENTS.length);
    const written = meeting(AGENTS.length);
    const finished = meeting(AGENTS.length);
    const stopHeld = opened();
    const intruded = opened();
    const quitterClaimed = opened();
    const givenBack = opened();
    const fileOf = (id: string) => join(p.project, ITEMS.find((item) => item.id === id)!.file);
    let line = '';
    let held = '';
    let quit: { id: string; agent: string } | undefined;
    let intrusion: { text: string | undefined; isError: boolean } | undefined;
    let ended = false;
    // An agent whose first claim fails breaks the plan: every meeting opens, so the session ends
    // now and the assertions say why, instead of the agents waiting for the hang guard.
    let broken: string | undefined;
    const failed = opened();
    const meet = (point: Promise<void>) => Promise.race([point, failed.promise]);

    /**
     * A subagent: claim from the ready queue, write the item's file, finish it, claim again, until
     * a claim finds nothing. The script puts the agents in step at four points:
     * - after their first claims the three wait for each other (so the Stop and the status line
     *   see three holders) and for the orchestrator's Stop to be held;
     * - after their first writes, agent one writes agent two's file while two still holds it;
     * - after their first dones, agent three claims the next item and stops without finishing it;
     * - the other two claim again once that item is back on the ready queue.
     */
    const agent =
      (name: string): Step =>
      async (body) => {
        const calls = callsOf(body);
        const last = calls.at(-1);
        const claims = calls.filter(
          (call) => call.name === 'Bash' && call.input.command.startsWith('baton work claim'),
        );
        const holding = claims.at(-1)?.isError === false ? JSON.parse(claims.at(-1)!.text!) : undefined;
        const claim = bash('baton work claim --lease 600 --json', 'claim the next ready item');
        if (last === undefined) {
          briefed.set(name, JSON.stringify(body.messages ?? []));
          return claim;
        }
        if (/^baton work done /.test(last.input.command ?? '')) {
          if (calls.filter((call) => /^baton work done /.test(call.input.command ?? '')).length === 1) {
            finished.arrive();
            await meet(finished.all);
            if (name !== 'three') await meet(givenBack.promise);
          }
          return claim;
        }
        if (last === claims.at(-1)) {
          if (holding === undefined) {
            if (!first.has(name)) {
              broken ??= `agent ${name}'s first claim: ${last.text}`;
              failed.open();
            }
            return { text: `DONE|nothing left: ${last.text}` };
          }
          if (!first.has(name)) {
            first.set(name, { id: holding.id, agent: holding.agent });
            claimed.arrive();
            await meet(claimed.all);
            await meet(stopHeld.promise);
          } else if (name === 'three' && quit === undefined) {
            quit = { id: holding.id, agent: holding.agent };
            quitterClaimed.open();
            // Its claim ends when it stops (SubagentStop), not when the lease runs out in 10 minutes.
            void until(
              () => JSON.parse(readFileSync(boardFile, 'utf8')).items[quit!.id].claim === undefined,
              () => ended,
            ).then(givenBack.open);
            return { text: `BLOCKED|giving ${holding.id} back` };
          }
          return {
            tool: 'Write',
            input: { file_path: fileOf(holding.id), content: `${holding.id} by ${holding.agent}\n` },
          };
        }
        if (last.name === 'Write' && holding !== undefined) {
          const other = first.get('two')!;
          if (name === 'one' && last.input.file_path === fileOf(other.id)) {
            intrusion = { text: last.text, isError: last.isError };
            intruded.open();
          } else if (calls.filter((call) => call.name === 'Write').length === 1) {
            written.arrive();
            await meet(written.all);
            if (name === 'one')
              return {
                tool: 'Write',
                input: { file_path: fileOf(other.id), content: `overwritten by ${holding.agent}\n` },
              };
            await meet(intruded.promise);
          }
          return bash(`baton work done ${holding.id}`, `finish ${holding.id}`);
        }
        return { text: `unexpected step after ${JSON.stringify(last)}` };
      };

    const ids = ITEMS.map((item) => item.id);
    const main: Step[] = [
      bash(
        ITEMS.map(
          (item) =>
            `baton work add ${item.id} --title '${item.title}' ${item.paths.map((path) => `--paths '${path}'`).join(' ')}${item.after.map((dep) => ` --after ${dep}`).join('')}`,
        ).join(' && '),
        'plan the work',
      ),
      {
        tools: AGENTS.map((name) => ({
          tool: 'Agent',
          input: {
            description: `worker ${name}`,
            subagent_type: 'general-purpose',
            prompt: `[[agent:${name}]] Claim items from the work board until none is ready.`,
            run_in_background: true,
          },
        })),
      },
      // The orchestrator tries to end its turn once the three hold their items.
      async () => {
        await meet(claimed.all);
        line = statusLine(p.project, p.home);
        return { text: 'The agents are at work.' };
      },
      // Told why it may not stop, it waits for the board as the reason says.
      async (body) => {
        held = JSON.stringify(body.messages?.at(-1) ?? {});
        stopHeld.open();
        if (broken !== undefined) return { text: 'The plan broke.' };
        // Claude Code moves a Bash call still running after 2 minutes to the background, unless the
        // call asks for longer (at most 10): the wait may outlast the agents' work on a loaded machine.
        return {
          tool: 'Bash',
          input: {
            command: `baton work wait ${ids.join(' ')} --all --timeout 600`,
            description: 'wait for the board',
            timeout: 600_000,
          },
        };
      },
      { text: 'All five items are done.' },
    ];
    const model = await startMockModel(main, Object.fromEntries(AGENTS.map((name) => [name, [agent(name)]])));
    t.after(() => model.close());
    const run = await runClaude(
      p.project,
      { ...claudeEnv(p.home, model), BATON_DEBUG_LOG: log },
      printArgs('build the feature with three workers', '--plugin-dir', PLUGIN),
      600_000,
    );
    ended = true;
    assert.equal(broken, undefined);
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    const hooks = readFileSync(log, 'utf8');
    const { claims, done, released } = boardHistory(p.project);

    // Three distinct agents claimed three distinct items first: the three the plan let run at once.
    // Each was told its name on the board before its first call (SubagentStart).
    const opening = claims.slice(0, 3);
    assert.equal(new Set(opening.map((claim) => claim.agent)).size, 3, JSON.stringify(claims));
    assert.deepEqual(new Set(opening.map((claim) => claim.id)), new Set(['api', 'ui', 'db']), JSON.stringify(claims));
    for (const name of AGENTS) {
      const mine = first.get(name)!;
      assert.ok(
        opening.some((claim) => claim.agent === mine.agent && claim.id === mine.id),
        `${name}: ${JSON.stringify(mine)}`,
      );
      assert.ok(briefed.get(name)?.includes(`you are agent ${mine.agent}`), briefed.get(name));
    }

    // The status line, while the three worked: how many are done, who holds what, how many wait.
    const holders = ['api', 'ui', 'db'].map((id) => `${opening.find((claim) => claim.id === id)!.agent}: ${id}`);
    assert.equal(line.split('\n')[1], `board 0/5 done · ↻ ${holders.join(', ')} · 2 open`, line);

    // The orchestrator's first Stop was held, and the model was told by whom and what to run; it
    // waited, the barrier was met, and its turn ended (the next Stop passed: one block in the log).
    for (const claim of opening) {
      const title = ITEMS.find((item) => item.id === claim.id)!.title;
      assert.ok(held.includes(`${claim.id} (${title}): held by ${claim.agent} until `), held);
    }
    assert.ok(held.includes(`baton work wait ${ids.join(' ')} --all --timeout 600`), held);
    assert.equal(hooks.match(/\[stop\] blocked: 'board-gate' 5 item\(s\) not done/g)?.length, 1, hooks);
    assert.equal(hooks.match(/\[stop\] blocked/g)?.length, 1, hooks);
    const waited = callsOf(model.turns().at(-1)!.body).find((call) =>
      call.input.command?.startsWith('baton work wait'),
    );
    assert.match(waited?.text ?? '', /^met: 5 done of 5 \(5 needed\)/, JSON.stringify(waited));

    // Agent one's Write of agent two's file was denied, naming the holder; the file is two's.
    const two = first.get('two')!;
    assert.equal(intrusion?.isError, true, JSON.stringify(intrusion));
    assert.match(intrusion.text ?? '', new RegExp(`reserved to work-board item ${two.id} .*held by ${two.agent}`));
    assert.equal(readFileSync(fileOf(two.id), 'utf8'), `${two.id} by ${two.agent}\n`);
    // (A background agent's denials are not in the session's permission_denials: the hooks' log has it.)
    const denials = hooks.split('\n').filter((entry) => / deny by /.test(entry));
    assert.equal(denials.length, 1, hooks);
    assert.ok(denials[0]!.endsWith(`PreToolUse deny by board-reserved: Write ${fileOf(two.id)}`), hooks);

    // Agent three stopped holding an item: SubagentStop gave it back, and another agent finished it.
    assert.ok(quit, 'agent three claimed a second item');
    assert.ok(
      released.some((entry) => entry.id === quit!.id && entry.writer === `SubagentStop: agent ${quit!.agent} ended`),
      JSON.stringify(released),
    );
    const retaken = claims.filter((claim) => claim.id === quit!.id);
    assert.equal(retaken.length, 2, JSON.stringify(claims));
    assert.equal(retaken[0]!.agent, quit.agent);
    assert.notEqual(retaken[1]!.agent, quit.agent);

    // Every item was finished by the agent holding it last, and its file is that agent's.
    assert.deepEqual([...new Set(claims.map((claim) => claim.id))].sort(), [...ids].sort(), JSON.stringify(claims));
    for (const id of ids) {
      const holder = claims.filter((claim) => claim.id === id).at(-1)!.agent;
      assert.equal(done.get(id), holder, `${id} finished by its holder`);
      assert.equal(readFileSync(fileOf(id), 'utf8'), `${id} by ${holder}\n`);
    }
    const board = JSON.parse(readFileSync(boardFile, 'utf8'));
    assert.deepEqual(
      ids.map((id) => board.items[id].status),
      ids.map(() => 'done'),
    );

    // The turn above ended on a Stop that carried stop_hook_active, which never blocks. A fresh
    // turn of the same session shows the gate itself lets the orchestrator stop now: its Stop
    // blocks nothing, so the model is asked once and the log gains no block.
    const next = await startMockModel([{ text: 'Everything is done.' }]);
    t.after(() => next.close());
    const resumed = await runClaude(
      p.project,
      { ...claudeEnv(p.home, next), BATON_DEBUG_LOG: log },
      printArgs('is the feature done?', '--resume', run.result.session_id, '--plugin-dir', PLUGIN),
      300_000,
    );
    assert.equal(resumed.code, 0, `claude exited ${resumed.code}\n${resumed.stdout}\n${resumed.stderr}`);
    assert.equal(resumed.result.session_id, run.result.session_id);
    assert.equal(next.turns().length, 1, JSON.stringify(next.turns().at(-1)?.body.messages?.at(-1)));
    assert.equal(readFileSync(log, 'utf8').match(/\[stop\] blocked/g)?.length, 1, readFileSync(log, 'utf8'));
  },
);

test(
  'the status line in an interactive Claude Code session names the board’s holders while their items are pending',
  { timeout: 180_000 },
  async (t) => {
    const p = boardProject();
    t.after(p.cleanup);
    // The interactive UI asks once about a key from the environment; the model is never called.
    trust(p.home, p.project, true);
    const work = (...args: string[]) => {
      const result = baton(['work', ...args], { cwd: p.project });
      assert.equal(result.code, 0, `baton work ${args.join(' ')}: ${result.stderr}`);
    };
    for (const item of ITEMS)
      work(
        'add',
        item.id,
        '--title',
        item.title,
        ...item.paths.flatMap((path) => ['--paths', path]),
        ...item.after.flatMap((dep) => ['--after', dep]),
      );
    work('claim', 'api', '--as', 'agent-1');
    work('claim', 'ui', '--as', 'agent-2');
    // The status line command baton install writes, in the project's settings.
    const dry = baton(['install', 'claude', '--project', '--dry-run'], { cwd: p.project });
    assert.equal(dry.code, 0, dry.stderr);
    mkdirSync(join(p.project, '.claude'), { recursive: true });
    writeFileSync(
      join(p.project, '.claude', 'settings.json'),
      JSON.stringify({ statusLine: JSON.parse(dry.stdout).statusLine }),
    );
    const env = { ...claudeEnv(p.home), TERM: 'xterm-256color', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const run = await drawUntil(
      p.project,
      env,
      ['0/5 done', 'agent-1: api', 'agent-2: ui', '3 open'],
      ['--plugin-dir', PLUGIN],
    );
    assert.equal(run.code, 0, `the board's row never drew:\n${run.screen}`);
    assert.match(run.screen, /board.{0,20} 0\/5 done.{0,40}↻.{0,20} agent-1: api, agent-2: ui.{0,20} · 3 open/);
  },
);
