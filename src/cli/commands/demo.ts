import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../../fs/atomic.js';
import { confine, mkdirInside } from '../../fs/confine.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDocument, isObject, type Json } from '../../core/json.js';
import type { Doc } from '../../doc/doc.js';
import { openDoc } from '../../doc/open.js';
import { renderTaskLine } from '../../harness/statusline/task-line.js';
import { intFlag, parseCommand } from '../args.js';
import { demoDefinition } from '../definitions.js';
import type { CommandIo } from '../../core/command-io.js';

const TASK = '.claude/state/current-task.json';
const RUN = '.ai_log/run.json';
const TDD = ['RED', 'GREEN', 'REFACTOR'];

/**
 * The newcomer's tour: an orchestrator (this process) runs waves of parallel agents (real child
 * processes) that race to update one task document and record their phase outputs in a run
 * document, all on the embedded file store. It then shows the state, the history and the status
 * line, and checks that no update was lost.
 */
export default async function demo(args: string[], cli: CommandIo): Promise<number> {
  const { flags } = parseCommand(demoDefinition(), args);
  const dir = flags.dir !== undefined ? resolve(cli.cwd, flags.dir) : mkdtempSync(join(tmpdir(), 'baton-demo-'));
  mkdirSync(dir, { recursive: true });
  const updates = intFlag(flags.updates, 'updates', 5) as number;
  if (flags.agent !== undefined) return agent(cli, dir, flags.agent, intFlag(flags.wave, 'wave', 1) as number, updates);
  const waves = intFlag(flags.waves, 'waves', 3) as number;
  const agents = intFlag(flags.agents, 'agents', 4) as number;
  try {
    return await orchestrate(cli, dir, waves, agents, updates);
  } finally {
    if (!flags.keep && flags.dir === undefined) rmSync(dir, { recursive: true, force: true });
    else cli.out(`\nfiles kept in ${dir}\n`);
  }
}

async function orchestrate(
  cli: CommandIo,
  dir: string,
  waves: number,
  agents: number,
  updates: number,
): Promise<number> {
  const started = Date.now();
  const task = open(dir, TASK, 'orchestrator');
  const run = open(dir, RUN, 'orchestrator');
  cli.out(`baton demo in ${dir}\n`);
  await task.init(
    { slug: 'demo-run', lane: 'deep', bracket: 4, phase: 1, phase_total: 1, phase_name: 'parallel waves', updates: 0 },
    { schema: 'eneo-task' },
  );
  await run.init({ session: 'demo', user_request: 'show baton under load', phases: {} });
  for (let wave = 1; wave <= waves; wave++) {
    const names = Array.from({ length: agents }, (_, i) => `agent-${wave}.${i + 1}`);
    await task.update(
      '.wave = $w | .wave_total = $t | .active_agents = $a | .wave_status[$w|tostring] = "in_progress" | .tdd_phase = $tdd | .next_hint = null',
      {
        w: wave,
        t: waves,
        a: names,
        tdd: TDD[(wave - 1) % TDD.length] as string,
      },
    );
    cli.out(`wave ${wave}/${waves}: ${agents} agent processes, ${updates} updates each ... `);
    const codes = await Promise.all(names.map((name) => spawnAgent(cli, dir, name, wave, updates)));
    const failed = codes.filter((code) => code !== 0).length;
    cli.out(failed === 0 ? 'all returned DONE\n' : `${failed} failed\n`);
    if (failed > 0) return 1;
    await task.update('.wave_status[$w|tostring] = "done"', { w: wave });
  }
  // The hint names the plugin's own command for the next step (a verified task is closed next).
  await task.update('.status = "verified" | .next_hint = "/baton:task-done"');
  return report(cli, task, run, waves * agents * updates, Date.now() - started);
}

async function report(cli: CommandIo, task: Doc, run: Doc, expected: number, ms: number): Promise<number> {
  const state = await task.read();
  const runDoc = await run.read();
  const history = await task.history({ limit: 10_000 });
  const writers = new Map<string, number>();
  for (const entry of history)
    writers.set(
      entry.writer?.replace(/-\d+\.\d+$/, '-*') ?? '-',
      (writers.get(entry.writer?.replace(/-\d+\.\d+$/, '-*') ?? '-') ?? 0) + 1,
    );
  cli.out(`\nfinal task document (${TASK}):\n${formatDocument(state ?? null)}`);
  const phases = isObject(runDoc) && isObject(runDoc.phases) ? runDoc.phases : {};
  cli.out(
    `\nrun document (${RUN}): ${Object.entries(phases)
      .map(([name, phase]) => `${name} ${countOutputs(phase)} outputs`)
      .join(', ')}\n`,
  );
  cli.out(
    `\nhistory: ${history.length} revisions of ${TASK}, newest r${history[0]?.rev}; by writer: ${[...writers].map(([w, n]) => `${w} ${n}`).join(', ')}\n`,
  );
  cli.out(`status line: ${renderTaskLine(state, false) ?? '(no task)'}\n`);
  const counted = isObject(state) && typeof state.updates === 'number' ? state.updates : -1;
  const outputs = Object.values(phases).reduce<number>((sum, phase) => sum + countOutputs(phase), 0);
  const lost = expected - counted;
  cli.out(
    `\n${lost === 0 ? 'ok' : 'FAIL'}: ${counted}/${expected} concurrent updates landed, ${outputs} phase outputs recorded, ${lost} lost (${ms} ms)\n`,
  );
  return lost === 0 ? 0 : 1;
}

function countOutputs(phase: Json): number {
  return isObject(phase) && isObject(phase.outputs) ? Object.keys(phase.outputs).length : 0;
}

/** One agent: a separate process that races the others for the same documents. */
async function agent(cli: CommandIo, dir: string, name: string, wave: number, updates: number): Promise<number> {
  const task = open(dir, TASK, name);
  const run = open(dir, RUN, name);
  for (let i = 0; i < updates; i++) {
    await task.update('.updates += 1', {});
    await sleep(Math.random() * 10);
  }
  const evidence = `.ai_log/wave-${wave}-${name}.md`;
  // Inside the demo's folder after symlinks, as every write of the engine.
  mkdirInside(dir, join(dir, '.ai_log'), 'demo log folder');
  writeFileAtomic(
    confine(dir, join(dir, evidence), 'demo evidence'),
    `# ${name}\n\nwave ${wave}: ${updates} updates\n`,
  );
  await run.update(
    '.phases[$p] |= ((. // {agent: "demo", status: "in_progress", outputs: {}, evidence: []}) | .outputs[$a] = $path | .evidence += [$path])',
    {
      p: `${wave}-wave`,
      a: name,
      path: evidence,
    },
  );
  await task.update('.active_agents |= (index([$a]) as $i | if $i == null then . else .[:$i] + .[$i + 1:] end)', {
    a: name,
  });
  cli.out(`DONE|${evidence}\n`);
  return 0;
}

function spawnAgent(cli: CommandIo, dir: string, name: string, wave: number, updates: number): Promise<number> {
  // The agent runs the same CLI this process was started with.
  const script = cli.script as string;
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [script, 'demo', '--dir', dir, '--agent', name, '--wave', String(wave), '--updates', String(updates)],
      {
        cwd: dir,
        env: { ...cli.env, BATON_ROOT: dir },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.on('close', (code) => done(code ?? 1));
  });
}

function open(dir: string, path: string, writer: string): Doc {
  return openDoc(join(dir, path), { cwd: dir, env: { BATON_ROOT: dir }, writer });
}
