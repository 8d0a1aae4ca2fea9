/**
 * `baton goal` in-process (npm run test:fast): each verb's refusals with their exit codes and one
 * line, what a refused verb leaves unchanged, and the verbs' edge cases (a taken archive name, a
 * pointer to a missing or closed goal, a state.md without its Now heading). goal-commands.test.ts
 * runs the same verbs through goal.sh and the built CLI.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

function goalProject() {
  const tree = tempTree({ 'home/.keep': '', 'work/.keep': '' });
  const home = join(tree.dir, 'home');
  const root = join(home, '.claude', 'orchestrate');
  const work = join(tree.dir, 'work');
  const goal = (args: string[], env: Record<string, string> = {}) =>
    batonInProcess(['goal', ...args], { cwd: work, env: { HOME: home, ...env } });
  return { ...tree, home, root, work, goal };
}

const read = (path: string) => readFileSync(path, 'utf8');

describe('baton goal: usage errors are exit 2, before any other check', () => {
  it('a missing or unknown verb, or a verb without its argument: one line saying which, then the usage line', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    for (const [args, why] of [
      [[], 'missing command'],
      [['bogus'], "unknown command 'bogus'"],
      [['start'], 'missing argument for start'],
      [['start', 'slug'], 'missing argument for start'],
      // Folded, ' \n ' was a title of spaces: a goal with an empty title.
      [
        ['start', 'slug', ' \n ', '\t'],
        "blank sentence for start (white space only): give the goal's sentence in words",
      ],
      [['now', '- '], 'missing argument for now'],
      [['land'], 'missing argument for land'],
    ] as const) {
      const r = await p.goal([...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const [first, second] = r.stderr.split('\n');
      assert.equal(first, `baton goal: ${why}`, args.join(' '));
      assert.match(second as string, /^usage: baton goal/, args.join(' '));
    }
    // Before the HOME check: a usage error even where no goal could be found.
    const noHome = await batonInProcess(['goal', 'now'], { cwd: p.work, env: { HOME: '' } });
    assert.equal(noHome.code, 2);
    assert.equal(existsSync(p.root), false, 'nothing written');
  });

  it("through goal.sh (the plugin's drop-in) a usage error prints goal.sh's usage block instead", async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    const r = await p.goal(['bogus'], { BATON_ORCHESTRATE_PLUGIN_ROOT: join(p.dir, 'plugin') });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ {4}goal\.sh start <slug> <goal sentence> /m);
    assert.doesNotMatch(r.stderr, /baton goal/);
  });

  it('without HOME there is no goal folder: exit 1 naming HOME', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    const r = await batonInProcess(['goal', 'list'], { cwd: p.work, env: { HOME: '' } });
    assert.equal(r.code, 1);
    assert.deepEqual(messageLines(r.stderr), [
      'baton goal: HOME is not set; the goals live in $HOME/.claude/orchestrate',
    ]);
  });
});

describe('baton goal refusals: exit 1, one line, nothing changed', () => {
  it('start refuses a bad slug, a live goal of that name and an archived one', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    const bad = await p.goal(['start', '../up', 'x']);
    assert.deepEqual([bad.code, bad.stderr], [1, "baton goal: bad slug '../up' (lower-case letters, digits, '-')\n"]);
    assert.equal(existsSync(p.root), false);
    assert.equal((await p.goal(['start', 'docs', 'Write the docs'])).code, 0);
    const again = await p.goal(['start', 'docs', 'again']);
    assert.deepEqual([again.code, again.stderr], [1, "baton goal: goal 'docs' exists; use: baton goal resume docs\n"]);
    assert.match(read(join(p.root, 'docs', 'state.md')), /^# Goal: Write the docs$/m);
    mkdirSync(join(p.root, 'archive', 'old'), { recursive: true });
    const archived = await p.goal(['start', 'old', 'x']);
    assert.deepEqual(
      [archived.code, archived.stderr],
      [1, "baton goal: a stopped goal is archived as 'old'; pick another slug\n"],
    );
    assert.equal(read(join(p.root, 'active')), `slug=docs\ndir=${p.work}\n`, 'the pointer is unchanged');
  });

  it('pause, close, touch, now and land with no active goal are refused', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    for (const args of [['pause'], ['close'], ['touch'], ['now', 'x'], ['land', 'x']]) {
      const r = await p.goal(args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(messageLines(r.stderr).length, 1, r.stderr);
      assert.match(r.stderr, /^baton goal: no active goal/, args.join(' '));
    }
  });

  it('resume refuses a slug that names no goal (or something outside the goal folder) and a closed goal', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    for (const slug of ['nope', '../home']) {
      const r = await p.goal(['resume', slug]);
      assert.deepEqual([r.code, r.stderr], [1, `baton goal: no goal '${slug}' (baton goal list)\n`]);
    }
    await p.goal(['start', 'done-one', 'x']);
    // A goal marked closed whose folder is still there (a close interrupted before the move).
    const state = join(p.root, 'done-one', 'state.md');
    writeFileSync(state, read(state).replace('status=active', 'status=closed'));
    await p.goal(['pause']);
    const closed = await p.goal(['resume', 'done-one']);
    assert.deepEqual([closed.code, closed.stderr], [1, "baton goal: goal 'done-one' is closed\n"]);
    assert.equal(existsSync(join(p.root, 'active')), false);
  });

  it("now and land on a state.md without its '## Now' line are refused, the file unchanged", async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    await p.goal(['start', 'g', 'x']);
    const state = join(p.root, 'g', 'state.md');
    writeFileSync(state, read(state).replace(/^## Now$/m, '## Later'));
    const before = read(state);
    for (const args of [
      ['now', 'entry'],
      ['land', 'label', 'done'],
    ]) {
      const r = await p.goal(args);
      assert.deepEqual([r.code, r.stderr], [1, `baton goal: ${state} has no '## Now' line\n`], args.join(' '));
    }
    assert.equal(read(state), before);
  });
});

describe('baton goal: the verbs on the edges', () => {
  it('pause marks the goal paused and says how to come back; a pointer to a missing or closed goal is just dropped', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    await p.goal(['start', 'g', 'x']);
    const paused = await p.goal(['pause']);
    assert.equal(paused.code, 0);
    assert.equal(paused.stdout, 'paused:   g\nthe hooks are off; baton goal resume g brings it back.\n');
    assert.match(read(join(p.root, 'g', 'state.md')), /status=paused/);
    assert.match(read(join(p.root, 'g', 'log.md')), /goal:g paused\n$/);
    // The pointer names a goal whose folder is gone: the pause drops the pointer and edits nothing.
    writeFileSync(join(p.root, 'active'), `slug=gone\ndir=${p.work}\n`);
    assert.equal((await p.goal(['pause'])).code, 0);
    assert.equal(existsSync(join(p.root, 'active')), false);
    assert.equal(existsSync(join(p.root, 'gone')), false);
    // A closed goal the pointer still names stays closed.
    const state = join(p.root, 'g', 'state.md');
    writeFileSync(state, read(state).replace('status=paused', 'status=closed'));
    writeFileSync(join(p.root, 'active'), `slug=g\ndir=${p.work}\n`);
    const log = read(join(p.root, 'g', 'log.md'));
    assert.equal((await p.goal(['pause'])).code, 0);
    assert.match(read(state), /status=closed/);
    assert.equal(read(join(p.root, 'g', 'log.md')), log, 'no second pause logged');
  });

  it('resume with no slug shows the pointer, notes another folder, and with none lists the goals (exit 3)', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    const none = await p.goal(['resume']);
    assert.deepEqual([none.code, none.stdout], [3, `No active goal. Goals in ${p.root}:\n  (none)\n`]);
    await p.goal(['start', 'g', 'the goal']);
    const here = await p.goal(['resume']);
    assert.equal(here.code, 0);
    assert.match(here.stdout, /^goal: +g$/m);
    assert.doesNotMatch(here.stdout, /^note:/m);
    mkdirSync(join(p.dir, 'elsewhere'));
    const away = await batonInProcess(['goal', 'resume'], { cwd: join(p.dir, 'elsewhere'), env: { HOME: p.home } });
    assert.equal(away.code, 0);
    assert.match(
      away.stdout,
      /^note: +this session is in \S+elsewhere, not the launch directory; .*baton goal resume g$/m,
    );
    // Resuming the active goal again leaves its state.md as it was (its mtime feeds the crash check).
    const state = join(p.root, 'g', 'state.md');
    const before = read(state);
    assert.equal((await p.goal(['resume', 'g'])).code, 0);
    assert.equal(read(state), before);
    await p.goal(['pause']);
    const listed = await p.goal(['resume']);
    assert.equal(listed.code, 3);
    assert.match(listed.stdout, /^ {2}g {28}paused/m);
  });

  it('close archives under a stamped name when the plain one is taken, never over it, and keeps a non-empty scratch', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    await p.goal(['start', 'g', 'x']);
    mkdirSync(join(p.root, 'archive', 'g'), { recursive: true });
    writeFileSync(join(p.root, 'archive', 'g', 'keep.md'), 'older\n');
    writeFileSync(join(p.root, 'g', 'scratch', 'wip.txt'), 'x'.repeat(2048));
    const closed = await p.goal(['close']);
    assert.equal(closed.code, 0, closed.stderr);
    const archived = readdirSync(join(p.root, 'archive')).filter((name) => name !== 'g');
    assert.equal(archived.length, 1);
    assert.match(archived[0] as string, /^g\.\d{8}T?\d{4,6}Z?/);
    assert.equal(read(join(p.root, 'archive', 'g', 'keep.md')), 'older\n');
    assert.match(read(join(p.root, 'archive', archived[0] as string, 'state.md')), /status=closed/);
    assert.match(closed.stdout, /^kept: +\S+\/g\/scratch \(/m);
    assert.equal(existsSync(join(p.root, 'g', 'scratch', 'wip.txt')), true);
    assert.match(closed.stdout, /pointer removed: the hooks are off\.\n$/);
  });

  it('land with an unknown label still appends the Done line and notes that Now is unchanged', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    await p.goal(['start', 'g', 'x']);
    await p.goal(['now', '- api: wire the routes']);
    const unknown = await p.goal(['land', 'docs', 'wrote the docs']);
    assert.equal(unknown.code, 0);
    assert.match(unknown.stdout, /^note: +no Now entry names docs; Now is unchanged$/m);
    assert.match(read(join(p.root, 'g', 'state.md')), /^- \d{4}-\d\d-\d\d \d\d:\d\dZ wrote the docs$/m);
    const known = await p.goal(['land', 'api']);
    assert.equal(known.code, 0);
    assert.doesNotMatch(known.stdout, /^note:/m);
    assert.doesNotMatch(read(join(p.root, 'g', 'state.md')), /api: wire the routes/);
  });

  it('list names the active goal and the archive count; a state.md without a Goal line lists an empty sentence', async (t) => {
    const p = goalProject();
    t.after(p.cleanup);
    const empty = await p.goal(['list']);
    assert.deepEqual([empty.code, empty.stdout], [0, `  (no goals in ${p.root})\n`]);
    await p.goal(['start', 'a', 'first']);
    await p.goal(['close']);
    await p.goal(['start', 'b', 'second']);
    const state = join(p.root, 'b', 'state.md');
    writeFileSync(state, read(state).replace(/^# Goal:.*\n/m, ''));
    const list = await p.goal(['list']);
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^\* b {28}active  updated \S+Z {2}$/m);
    assert.match(list.stdout, /^ {2}\(1 stopped goals in \S+\/archive\/; baton goal list --all shows them\)$/m);
    assert.match(list.stdout, new RegExp(`^active: b \\(launched in ${p.work}\\)$`, 'm'));
    const all = await p.goal(['list', '--all']);
    assert.match(all.stdout, /^ {2}archive\/a {20}closed {2}updated \S+Z {2}first$/m);
    rmSync(join(p.root, 'archive'), { recursive: true });
  });
});
