// The work board: `baton work claim` and `done` as whole processes against the bash+jq reference
// doing the same decision as a locked read-modify-write (flock, jq, mv), and how soon a blocked
// `baton work wait` returns after the last done (the store's watch) against a bash loop polling
// the file every 100 ms, the way a script without a watch waits.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WAKEUPS = 9;
const CLAIM_JQ =
  'if (.items.x.claim // null) != null and .items.x.claim.expires > $now then error("held") else .items.x.claim = {agent: $a, expires: $exp} end';
const DONE_JQ =
  'if .items.x.claim.agent != $a or .items.x.claim.expires <= $now then error("not yours") else .items.x.status = "done" | del(.items.x.claim) end';

export default async function board(lib) {
  const dir = lib.tempDir();
  const env = lib.benchEnv({ BATON_ROOT: dir });
  const node = process.execPath;
  const work = (...args) => {
    const result = spawnSync(node, [lib.BATON, 'work', ...args], { cwd: dir, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`baton work ${args.join(' ')}: ${result.stderr}`);
  };
  writeFileSync(join(dir, '.git'), '');
  work('add', 'x', '--title', 'bench');
  const claim = lib.timeProcess([node, lib.BATON, 'work', 'claim', 'x', '--as', 'a'], {
    cwd: dir,
    env,
    before: () => work('reopen', 'x', '--as', 'a'),
  });
  const done = lib.timeProcess([node, lib.BATON, 'work', 'done', 'x', '--as', 'a'], {
    cwd: dir,
    env,
    before: () => {
      work('reopen', 'x', '--as', 'a');
      work('claim', 'x', '--as', 'a');
    },
  });

  let refClaim = null;
  let refDone = null;
  const ref = join(dir, 'ref.json');
  const fresh = () => writeFileSync(ref, JSON.stringify({ items: { x: { title: 'bench', status: 'open' } } }));
  const stamp = () => new Date().toISOString();
  if (lib.hasReference()) {
    const refUpdate = (expr) => () => [
      'bash',
      lib.REFERENCE,
      'update',
      ref,
      expr,
      'a',
      'a',
      'now',
      stamp(),
      'exp',
      new Date(Date.now() + 900_000).toISOString(),
    ];
    refClaim = lib.timeProcess(refUpdate(CLAIM_JQ)(), { cwd: dir, env, before: fresh });
    refDone = lib.timeProcess(refUpdate(DONE_JQ)(), {
      cwd: dir,
      env,
      before: () => {
        fresh();
        const [command, ...args] = refUpdate(CLAIM_JQ)();
        spawnSync(command, args, { cwd: dir, env });
      },
    });
  }

  // Wake-up: from the moment the last done process exits to the moment the waiter exits.
  const wakeups = [];
  const polls = [];
  for (let i = 0; i < WAKEUPS; i++) {
    work('reopen', 'x', '--as', 'a');
    work('claim', 'x', '--as', 'a');
    wakeups.push(
      await wakeup(node, [lib.BATON, 'work', 'wait', 'x', '--all', '--timeout', '60'], dir, env, () =>
        work('done', 'x', '--as', 'a'),
      ),
    );
    fresh();
    const poll = `until [ "$(jq -r .items.x.status ${ref})" = done ]; do sleep 0.1; done`;
    polls.push(
      await wakeup('bash', ['-c', poll], dir, env, () =>
        writeFileSync(ref, JSON.stringify({ items: { x: { title: 'bench', status: 'done' } } })),
      ),
    );
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const gate = reservations(lib, node);
  return [
    ...gate,
    {
      name: 'work claim (one process, a free item)',
      baton: claim,
      reference: refClaim,
      unit: 'ms',
      note: 'reference: flock + jq + mv of the same decision',
    },
    {
      name: 'work done (one process, the holder)',
      baton: done,
      reference: refDone,
      unit: 'ms',
      note: 'reference: flock + jq + mv of the same decision',
    },
    {
      name: 'work wait: wake-up after the last done',
      baton: median(wakeups),
      reference: median(polls),
      unit: 'ms',
      note: `median of ${WAKEUPS}; baton waits on the store's watch, the reference polls every 100 ms`,
    },
  ];
}

/**
 * The PreToolUse gate with a board (an item claimed by another agent, its paths reserved) against
 * the same project without one, side by side: what reading the board costs a hook. Without a board
 * the hook pays one stat.
 */
function reservations(lib, node) {
  const project = (withBoard) => {
    const dir = lib.tempDir('baton-bench-reserve-');
    writeFileSync(join(dir, '.git'), '');
    writeFileSync(join(dir, 'baton.config.json'), '{}\n');
    const env = lib.benchEnv({ BATON_ROOT: dir });
    if (withBoard) {
      for (const args of [
        ['add', 'api', '--title', 'API', '--paths', 'src/api/**'],
        ['add', 'ui', '--title', 'UI', '--paths', 'src/ui/**'],
        ['claim', 'api', '--as', 'holder'],
      ]) {
        const r = spawnSync(node, [lib.BATON, 'work', ...args], { cwd: dir, env, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`baton work ${args.join(' ')}: ${r.stderr}`);
      }
    }
    return { dir, env };
  };
  const board = project(true);
  const bare = project(false);
  const write = (dir, path) =>
    JSON.stringify({
      session_id: 's',
      agent_id: 'other',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(dir, path), content: 'x' },
    });
  const hook = ({ dir, env }, path) => ({
    argv: [node, lib.BATON, 'hook', 'PreToolUse'],
    cwd: dir,
    env,
    input: write(dir, path),
  });
  const denied = spawnSync(node, [lib.BATON, 'hook', 'PreToolUse'], {
    cwd: board.dir,
    env: board.env,
    input: write(board.dir, 'src/api/x.ts'),
    encoding: 'utf8',
  });
  if (!/board-reserved/.test(denied.stdout)) throw new Error(`the reserved write was not denied: ${denied.stdout}`);
  const t = lib.timeInterleaved({
    reserved: hook(board, 'src/api/x.ts'),
    free: hook(board, 'src/ui/x.ts'),
    bare: hook(bare, 'src/api/x.ts'),
  });
  const row = (name, a, note) => ({
    name,
    baton: a.ms,
    reference: t.bare.ms,
    unit: 'ms',
    cpu: [a.cpu, t.bare.cpu],
    note,
  });
  return [
    row('hook PreToolUse Write, board: reserved path (deny)', t.reserved, 'ref: the same hook, no board'),
    row('hook PreToolUse Write, board: free path (allow)', t.free, 'ref: the same hook, no board'),
  ];
}

/** Starts the waiter, lets it settle, finishes the work, and times from then to the waiter's exit. */
async function wakeup(command, args, cwd, env, finish) {
  const waiter = spawn(command, args, { cwd, env, stdio: 'ignore' });
  const exited = new Promise((resolve) => waiter.on('close', () => resolve(process.hrtime.bigint())));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  finish();
  const from = process.hrtime.bigint();
  return Number((await exited) - from) / 1e6;
}
