import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { baton, BATON_BIN, sandbox, script, type Sandbox } from './helpers.js';

/** Every goal verb and exit code, run as the plugin's checks run goal.sh. */
const goal = (box: Sandbox, ...args: string[]) => script(box, 'goal.sh', args);
const read = (path: string) => readFileSync(path, 'utf8');
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;

test('C1 start: paths block, pointer, folders, git exclude, log, clean lint', () => {
  const box = sandbox();
  const run = goal(box, 'start', 'docs-pass', 'Rewrite the user guide');
  assert.equal(run.status, 0, run.stderr);
  const dir = join(box.root, 'docs-pass');
  assert.equal(
    run.stdout,
    `goal:     docs-pass\nfolder:   ${dir}\nstate:    ${dir}/state.md\nstatus:   ${box.work}/.claude/status.md\nlaunched: ${box.work}\n`,
  );
  assert.equal(read(join(box.root, 'active')), `slug=docs-pass\ndir=${box.work}\n`);
  for (const sub of ['briefs', 'reports', 'maps', 'scratch']) assert.ok(statSync(join(dir, sub)).isDirectory());
  const state = read(join(dir, 'state.md'));
  assert.equal(state.split('\n').length - 1, 25);
  assert.match(state, /^<!-- state: updated=\S+Z status=active -->\n# Goal: Rewrite the user guide\n/);
  assert.match(
    read(join(dir, 'log.md')),
    new RegExp(`^- ${ISO.source} goal:docs-pass started in ${box.work}: Rewrite the user guide\n$`),
  );
  assert.match(read(join(box.work, '.git', 'info', 'exclude')), /\n\/\.claude\/status\.md\n$/);
  const lint = script(box, 'state-lint.sh', [join(dir, 'state.md'), join(dir, 'log.md'), join(dir, '.lint')]);
  assert.deepEqual([lint.status, lint.stdout], [0, '']);
  // A second start in a sub folder of the same repo adds the relative line once.
  mkdirSync(join(box.work, 'sub'));
  script(box, 'goal.sh', ['start', 'two', 'x'], { cwd: join(box.work, 'sub') });
  script(box, 'goal.sh', ['resume', 'two'], { cwd: join(box.work, 'sub') });
  const exclude = read(join(box.work, '.git', 'info', 'exclude'));
  assert.equal(exclude.split('/sub/.claude/status.md\n').length, 2);
});

test('C2 start refusals and usage; nothing changes on refusal', () => {
  const box = sandbox();
  const bad = goal(box, 'start', 'Docs_Pass', 'x');
  assert.deepEqual([bad.status, bad.stderr], [1, "goal.sh: bad slug 'Docs_Pass' (lower-case letters, digits, '-')\n"]);
  assert.equal(goal(box, 'start', 'docs-pass').status, 2);
  assert.match(goal(box, 'start', 'docs-pass').stderr, /goal\.sh start <slug> <goal sentence>/);
  assert.equal(goal(box).status, 2);
  assert.equal(goal(box, 'bogus').status, 2);
  goal(box, 'start', 'docs-pass', 'first');
  const again = goal(box, 'start', 'docs-pass', 'again');
  assert.deepEqual(
    [again.status, again.stderr],
    [1, "goal.sh: goal 'docs-pass' exists; use: goal.sh resume docs-pass\n"],
  );
  goal(box, 'start', 'other', 'o');
  const pointer = read(join(box.root, 'active'));
  goal(box, 'resume', 'docs-pass');
  goal(box, 'close');
  const archived = goal(box, 'start', 'docs-pass', 'third');
  assert.deepEqual(
    [archived.status, archived.stderr],
    [1, "goal.sh: a stopped goal is archived as 'docs-pass'; pick another slug\n"],
  );
  assert.ok(!existsSync(join(box.root, 'active')), 'refused start wrote no pointer');
  assert.match(pointer, /^slug=other\n/);
});

test('C3-C4 start pauses the active goal; list shows both with marks, archive count and pointer', () => {
  const box = sandbox();
  goal(box, 'start', 'docs-pass', 'Rewrite the user guide');
  const run = goal(box, 'start', 'api-v2', 'Ship v2');
  assert.match(run.stdout, /^paused:   docs-pass\ngoal:     api-v2\n/);
  assert.match(read(join(box.root, 'docs-pass', 'state.md')), /^<!-- state: updated=\S+ status=paused -->/);
  assert.match(read(join(box.root, 'docs-pass', 'log.md')), /goal:docs-pass paused\n$/);
  const list = goal(box, 'list');
  const lines = list.stdout.split('\n');
  assert.match(lines[0] ?? '', /^\* api-v2 {23}active  updated \S+Z  Ship v2$/);
  assert.match(lines[1] ?? '', /^  docs-pass {20}paused  updated \S+Z  Rewrite the user guide$/);
  assert.equal(lines[2], `active: api-v2 (launched in ${box.work})`);
  goal(box, 'close');
  const after = goal(box, 'list').stdout;
  assert.match(after, /\n  \(1 stopped goals in .*\/archive\/; goal\.sh list --all shows them\)\n$/);
  assert.match(goal(box, 'list', '--all').stdout, /\n  archive\/api-v2 {15}closed  updated/);
  goal(box, 'resume', 'docs-pass');
  goal(box, 'close');
  assert.equal(
    goal(box, 'list').stdout,
    `  (2 stopped goals in ${box.root}/archive/; goal.sh list --all shows them)\n  (no goals in ${box.root})\n`,
  );
});

test('C5 resume: with a slug, refusals, the active goal, and exit 3 with no pointer', () => {
  const box = sandbox();
  goal(box, 'start', 'docs-pass', 'Rewrite');
  goal(box, 'start', 'api-v2', 'Ship');
  const run = goal(box, 'resume', 'docs-pass');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^paused:   api-v2\ngoal:     docs-pass\n/);
  assert.equal(read(join(box.root, 'active')), `slug=docs-pass\ndir=${box.work}\n`);
  assert.match(read(join(box.root, 'docs-pass', 'log.md')), /goal:docs-pass resumed in .*\n$/);
  const nosuch = goal(box, 'resume', 'nosuch');
  assert.deepEqual([nosuch.status, nosuch.stderr], [1, "goal.sh: no goal 'nosuch' (goal.sh list)\n"]);
  const state = join(box.root, 'docs-pass', 'state.md');
  const before = statSync(state).mtimeMs;
  writeFileSync(join(box.root, 'active'), `slug=docs-pass\ndir=${box.work}\nsession=s1\n`);
  assert.equal(goal(box, 'resume', 'docs-pass').status, 0);
  assert.equal(statSync(state).mtimeMs, before, 'resuming the active goal leaves state.md untouched');
  assert.equal(read(join(box.root, 'active')), `slug=docs-pass\ndir=${box.work}\n`, 'and un-claims it');
  const show = goal(box, 'resume');
  assert.equal(show.status, 0);
  assert.doesNotMatch(show.stdout, /note:/);
  const elsewhere = script(box, 'goal.sh', ['resume'], { cwd: box.base });
  assert.match(
    elsewhere.stdout,
    /\nnote:     this session is in .*, not the launch directory; the hooks are off here\. To move the goal here: goal\.sh resume docs-pass\n$/,
  );
  goal(box, 'resume', 'api-v2');
  goal(box, 'close');
  goal(box, 'pause');
  const none = goal(box, 'resume');
  assert.equal(none.status, 3);
  assert.equal(
    none.stdout,
    `No active goal. Goals in ${box.root}:\n  docs-pass                    paused  updated ${/updated=(\S+)/.exec(read(state))?.[1]}  Rewrite\n  (1 stopped goals in ${box.root}/archive/; goal.sh list --all shows them)\n`,
  );
  goal(box, 'resume', 'docs-pass');
  goal(box, 'close');
  assert.match(goal(box, 'resume').stdout, /\n  \(none\)\n$/);
  assert.equal(goal(box, 'resume', 'docs-pass').status, 1, 'a closed goal cannot be resumed');
});

test('C6 pause, then pause again; C7 touch', () => {
  const box = sandbox();
  assert.deepEqual([goal(box, 'touch').status, goal(box, 'touch').stderr], [1, 'goal.sh: no active goal\n']);
  goal(box, 'start', 'docs-pass', 'x');
  const state = join(box.root, 'docs-pass', 'state.md');
  writeFileSync(state, read(state).replace(/updated=\S+/, 'updated=2019-05-05T00:00:00Z'));
  const touch = goal(box, 'touch');
  assert.equal(touch.status, 0);
  assert.match(touch.stdout, /^<!-- state: updated=\d{4}-\S+Z status=active -->\n$/);
  assert.doesNotMatch(touch.stdout, /2019/);
  const pause = goal(box, 'pause');
  assert.deepEqual(
    [pause.status, pause.stdout],
    [0, 'paused:   docs-pass\nthe hooks are off; goal.sh resume docs-pass brings it back.\n'],
  );
  assert.ok(!existsSync(join(box.root, 'active')));
  assert.deepEqual([goal(box, 'pause').status, goal(box, 'pause').stderr], [1, 'goal.sh: no active goal\n']);
  goal(box, 'resume', 'docs-pass');
  writeFileSync(state, 'no marker here\n## Now\n');
  assert.deepEqual([goal(box, 'touch').status, read(state)], [0, 'no marker here\n## Now\n']);
});

test('C8-C9 now and land: entries, placeholder, Done line, notes, mode kept, no temp left', () => {
  const box = sandbox();
  assert.equal(goal(box, 'now').status, 2, 'usage before the active-goal check');
  assert.equal(goal(box, 'land').status, 2);
  goal(box, 'start', 'docs-pass', 'x');
  const state = join(box.root, 'docs-pass', 'state.md');
  chmodSync(state, 0o600);
  const scan = '[haiku] scan links -> scan1 -> briefs/scan1.md -> reports/scan1.md';
  assert.equal(goal(box, 'now', scan).stdout, `## Now\n- ${scan}\n\n`);
  const rev = '- [opus] review -> rev1 -> briefs/rev1.md -> reports/rev1.md';
  assert.equal(goal(box, 'now', rev).stdout, `## Now\n- ${scan}\n${rev}\n\n`);
  assert.equal(goal(box, 'now', 'a\nb -> l -> x -> y').stdout, `## Now\n- ${scan}\n${rev}\n- a b -> l -> x -> y\n\n`);
  assert.equal(goal(box, 'land', 'l').status, 0);
  const doneBefore = read(state).split('## Done\n')[1];
  assert.equal(goal(box, 'land', 'rev1').stdout, `## Now\n- ${scan}\n\n`);
  assert.equal(read(state).split('## Done\n')[1], doneBefore, 'no done line, Done untouched');
  const ghost = goal(box, 'land', 'ghost', 'manual fix');
  assert.deepEqual(
    [ghost.status, ghost.stdout],
    [0, `## Now\n- ${scan}\n\nnote:     no Now entry names ghost; Now is unchanged\n`],
  );
  assert.equal(goal(box, 'land', 'scan1', 'links fixed -> reports/scan1.md').stdout, '## Now\n- (nothing running)\n\n');
  assert.equal(goal(box, 'land', '-', 'typo fixed').stdout, '## Now\n- (nothing running)\n\n');
  const done = read(state).trimEnd().split('\n').slice(-3);
  assert.match(done[0] ?? '', /^- \d{4}-\d\d-\d\d \d\d:\d\dZ manual fix$/);
  assert.match(done[1] ?? '', /^- \S+ \S+Z links fixed -> reports\/scan1\.md$/);
  assert.match(done[2] ?? '', /^- \S+ \S+Z typo fixed$/);
  assert.equal(statSync(state).mode & 0o777, 0o600);
  assert.deepEqual(
    readdirSync(join(box.root, 'docs-pass')).filter((n) => n.includes('tmp')),
    [],
  );
  const lint = script(box, 'state-lint.sh', [state]);
  assert.equal(lint.stdout, '', 'the edited file passes the lint');
});

test('land: naming rule, foreground entries, blank lines, the first Now and Done only', () => {
  const box = sandbox();
  goal(box, 'start', 'g', 'x');
  const state = join(box.root, 'g', 'state.md');
  const body = [
    '<!-- state: updated=2020-01-01T00:00:00Z status=active -->',
    '## Now',
    '- a -> la -> b -> r',
    '',
    '',
    '- fixes',
    '- foreground: design',
    '- [m] a -> fix-7 -> b -> r',
    '- b -> lb -> b2 -> r2',
    '## Next',
    '## Now',
    '- keep',
    '## Done',
    '- d1',
    '',
    '## Done',
    '- d2',
    '',
  ];
  writeFileSync(state, body.join('\n'));
  assert.equal(goal(box, 'land', 'fix').stdout.includes('note:     no Now entry names fix'), true);
  assert.equal(
    goal(box, 'land', 'foreground').stdout,
    '## Now\n- a -> la -> b -> r\n- fixes\n- [m] a -> fix-7 -> b -> r\n- b -> lb -> b2 -> r2\n\n',
  );
  goal(box, 'land', 'lb', 'shipped');
  const lines = read(state).split('\n');
  assert.deepEqual(lines.slice(5, 15), [
    '',
    '## Next',
    '## Now',
    '- keep',
    '## Done',
    '- d1',
    lines[11],
    '',
    '## Done',
    '- d2',
  ]);
  assert.match(lines[11] ?? '', /Z shipped$/);
  writeFileSync(state, '<!-- state: updated=x -->\n## Now\n');
  goal(box, 'land', '-', 'no done section');
  assert.match(read(state), /## Now\n- \(nothing running\)\n\n## Done\n- \S+ \S+Z no done section\n$/);
  writeFileSync(state, 'no now here\n');
  const refused = goal(box, 'now', 'x');
  assert.deepEqual([refused.status, refused.stderr], [1, `goal.sh: ${state} has no '## Now' line\n`]);
});

test('C10 close archives all but scratch, keeps scratch with its size, hidden names included', () => {
  const box = sandbox();
  goal(box, 'start', 'docs-pass', 'x');
  const dir = join(box.root, 'docs-pass');
  mkdirSync(join(dir, 'scratch', 'x'), { recursive: true });
  writeFileSync(join(dir, 'scratch', 'x', 'f'), 'data');
  writeFileSync(join(dir, '..notes'), 'n');
  writeFileSync(join(dir, '.lint'), '');
  const run = goal(box, 'close');
  const dest = join(box.root, 'archive', 'docs-pass');
  assert.equal(run.status, 0);
  assert.match(
    run.stdout,
    new RegExp(
      `^closed:   docs-pass\narchived: ${dest}\nkept:     ${dir}/scratch \\(\\d+(\\.\\d)?K\\)\npointer removed: the hooks are off\\.\n$`,
    ),
  );
  assert.deepEqual(readdirSync(dest).sort(), ['..notes', '.lint', 'briefs', 'log.md', 'maps', 'reports', 'state.md']);
  assert.match(read(join(dest, 'state.md')), /status=closed/);
  assert.match(read(join(dest, 'log.md')), /goal:docs-pass stopped\n$/);
  assert.deepEqual(readdirSync(dir), ['scratch']);
  assert.equal(goal(box, 'resume', 'docs-pass').status, 1);
  assert.equal(goal(box, 'close').status, 1);
  goal(box, 'start', 'plain', 'x');
  const empty = goal(box, 'close');
  assert.doesNotMatch(empty.stdout, /kept:/);
  assert.ok(!existsSync(join(box.root, 'plain')), 'an empty scratch and folder are removed');
});

test('native face: baton goal names itself, HOME missing refuses with 1', () => {
  const box = sandbox();
  const bad = baton(box, ['goal', 'resume', 'nope']);
  assert.deepEqual([bad.status, bad.stderr], [1, "baton goal: no goal 'nope' (baton goal list)\n"]);
  const noHome = baton(box, ['goal', 'list'], { env: { HOME: '' } });
  assert.equal(noHome.status, 1);
  assert.match(noHome.stderr, /^baton goal: HOME is not set/);
  assert.equal(script(box, 'goal.sh', ['list'], { env: { HOME: '' } }).status, 1);
});

test('goal.sh has no transcript verb: it is an unknown verb there (usage, 2); baton goal has it', () => {
  const box = sandbox();
  const t = join(box.base, 't.jsonl');
  writeFileSync(t, '{"type":"user","timestamp":"2026-03-04T09:00:00Z","message":{"content":"hi"}}\n');
  const run = script(box, 'goal.sh', ['transcript', t]);
  assert.deepEqual([run.status, run.stdout], [2, '']);
  assert.match(run.stderr, /^ {4}goal\.sh start <slug>/);
  assert.equal(script(box, 'transcript-text.sh', [t]).stdout, '[2026-03-04T09:00:00Z] USER: hi\n');
  assert.equal(baton(box, ['goal', 'transcript', t]).stdout, '[2026-03-04T09:00:00Z] USER: hi\n');
});

test('land stamps its Done line under the lock: a land that waited across a minute boundary keeps Done in order', async () => {
  const box = sandbox();
  goal(box, 'start', 'docs-pass', 'x');
  const dir = join(box.root, 'docs-pass');
  const clock = join(box.base, 'clock');
  writeFileSync(clock, '2026-01-01T12:00:59Z');
  const env = { ...box.env, BATON_CLOCK_FILE: clock };
  // A live process holds the state lock, so the first land waits for it.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    writeFileSync(join(dir, '.state.md.lock'), `${holder.pid}\n${hostname()}\n${Date.now()}\ntok\n\n`);
    const first = spawn(process.execPath, [BATON_BIN, 'goal', 'land', '-', 'first'], {
      cwd: box.work,
      env,
      stdio: 'ignore',
    });
    const firstDone = new Promise((resolve) => first.on('close', resolve));
    // Let it start and wait on the lock (a settle, not an assertion), then freeze it there while
    // the minute turns and a second land goes through.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    first.kill('SIGSTOP');
    writeFileSync(clock, '2026-01-01T12:01:00Z');
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.on('close', resolve));
    assert.equal(baton(box, ['goal', 'land', '-', 'second'], { env }).status, 0);
    first.kill('SIGCONT');
    assert.equal(await firstDone, 0);
    const done = read(join(dir, 'state.md')).trimEnd().split('\n').slice(-2);
    assert.deepEqual(done, ['- 2026-01-01 12:01Z second', '- 2026-01-01 12:01Z first']);
    assert.doesNotMatch(script(box, 'state-lint.sh', [join(dir, 'state.md')]).stdout, /done-order/);
  } finally {
    holder.kill('SIGKILL');
    rmSync(box.base, { recursive: true, force: true });
  }
});
