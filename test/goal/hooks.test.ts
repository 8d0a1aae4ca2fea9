import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bash, hook, prompt, sandbox, script, tool, transcript, type Sandbox } from './helpers.js';

/** Every hook path, silent cases included, as the plugin's checks drive them. */
function started(options: { session?: string } = {}): Sandbox & { state: string; dir: string } {
  const box = sandbox();
  script(box, 'goal.sh', ['start', 'docs-pass', 'Rewrite the user guide']);
  const dir = join(box.root, 'docs-pass');
  if (options.session)
    writeFileSync(join(box.root, 'active'), `slug=docs-pass\ndir=${box.work}\nsession=${options.session}\n`);
  return { ...box, state: join(dir, 'state.md'), dir };
}
const pointer = (box: Sandbox) => readFileSync(join(box.root, 'active'), 'utf8');

test('H1 no pointer: all three hooks silent and ROOT is not created; garbage stdin too', () => {
  const box = sandbox();
  for (const name of ['session-start.sh', 'stop.sh', 'session-end.sh']) {
    for (const input of ['{"session_id":"s1","source":"startup"}', 'not json', '', '\u0000\u0001binary']) {
      assert.equal(hook(box, name, input).context, undefined);
    }
  }
  assert.ok(!existsSync(join(box.home, '.claude')));
});

test('garbage stdin with an active goal: silent, exit 0', () => {
  const box = started({ session: 's1' });
  for (const name of ['session-start.sh', 'stop.sh', 'session-end.sh']) {
    for (const input of ['not json', '[1,2]', '"str"', '{"session_id":{"a":1}}', 'x'.repeat(200_000)]) {
      const run = hook(box, name, input, {});
      assert.equal(run.run.stdout, '');
    }
  }
});

test('H2 claim by Stop after goal.sh resume; a list-only turn claims nothing', () => {
  const box = started();
  const listOnly = transcript(box, 'a.jsonl', [prompt('go'), bash('bash /p/scripts/goal.sh list')]);
  assert.equal(hook(box, 'stop.sh', { session_id: 's1', transcript_path: listOnly, cwd: box.work }).context, undefined);
  assert.doesNotMatch(pointer(box), /session=/);
  const t = transcript(box, 'b.jsonl', [prompt('go'), bash('bash /p/scripts/goal.sh resume docs-pass')], 'broken {\n');
  const { context } = hook(box, 'stop.sh', { session_id: 's1', transcript_path: t, cwd: box.work });
  assert.match(pointer(box), /\nsession=s1\n$/);
  assert.ok(
    context?.startsWith('## Orchestrate: docs-pass\n(injected by the Stop hook: this session now owns the goal)\n'),
  );
  assert.match(context ?? '', /\(25 lines; not loaded\)/);
  assert.match(context ?? '', /This session took the goal over with goal\.sh resume\./);
  assert.doesNotMatch(context ?? '', /--- head of/);
  // Empty session id never claims; stop_hook_active never speaks.
  writeFileSync(join(box.root, 'active'), `slug=docs-pass\ndir=${box.work}\n`);
  assert.equal(hook(box, 'stop.sh', { session_id: '', transcript_path: t, cwd: box.work }).context, undefined);
  assert.equal(
    hook(box, 'stop.sh', { session_id: 's2', transcript_path: t, cwd: box.work, stop_hook_active: 'true' }).context,
    undefined,
  );
  assert.equal(
    hook(box, 'stop.sh', { session_id: 's2', transcript_path: join(box.base, 'missing.jsonl'), cwd: box.work }).context,
    undefined,
  );
});

test('a claim after `baton goal start` names baton goal, not goal.sh', () => {
  const box = started();
  const t = transcript(box, 'n.jsonl', [prompt('go'), bash('cd /w && npx baton goal start docs-pass "x"')]);
  const { context } = hook(box, 'stop.sh', { session_id: 's9', transcript_path: t, cwd: box.work });
  assert.match(pointer(box), /\nsession=s9\n$/);
  assert.match(context ?? '', /This session took the goal over with baton goal start\./);
  assert.doesNotMatch(context ?? '', /goal\.sh\. Reconcile/);
});

test('H3 nudge: an edit outside the state file; silent after a state edit, a read, or for another session', () => {
  const box = started({ session: 's1' });
  const edit = transcript(box, 'e.jsonl', [prompt('go'), tool('Edit', `${box.work}/src.py`)]);
  const { context } = hook(box, 'stop.sh', { session_id: 's1', transcript_path: edit, cwd: box.work });
  const lines = (context ?? '').split('\n');
  assert.equal(
    lines[0],
    'Orchestrate state check: this turn changed things (edits, agents or git/gh writes) without updating the state file.',
  );
  assert.equal(
    lines[1],
    `Record it in ${box.state} (goal.sh now or land for a launch or return, a small Edit for Next and anything decided), then run goal.sh touch. goal.sh is bash ${box.plugin}/scripts/goal.sh.`,
  );
  assert.equal(lines.at(-2), 'Do not repeat your previous reply; end the turn with at most one line.');
  assert.equal(lines.at(-1), '');
  const both = transcript(box, 'f.jsonl', [prompt('go'), tool('Edit', `${box.work}/src.py`), tool('Edit', box.state)]);
  assert.equal(hook(box, 'stop.sh', { session_id: 's1', transcript_path: both, cwd: box.work }).context, undefined);
  const viaTool = transcript(box, 'g.jsonl', [prompt('go'), tool('Agent'), bash('bash /x/goal.sh now x')]);
  assert.equal(hook(box, 'stop.sh', { session_id: 's1', transcript_path: viaTool, cwd: box.work }).context, undefined);
  const read = transcript(box, 'h.jsonl', [prompt('go'), tool('Read', `${box.work}/src.py`)]);
  assert.equal(hook(box, 'stop.sh', { session_id: 's1', transcript_path: read, cwd: box.work }).context, undefined);
  assert.equal(hook(box, 'stop.sh', { session_id: 's2', transcript_path: edit, cwd: box.work }).context, undefined);
  const bookkeeping = transcript(box, 'i.jsonl', [
    prompt('go'),
    tool('Write', `${box.dir}/briefs/b.md`),
    tool('Write', `${box.work}/.claude/status.md`),
  ]);
  assert.equal(
    hook(box, 'stop.sh', { session_id: 's1', transcript_path: bookkeeping, cwd: box.work }).context,
    undefined,
  );
  const oldRoot = transcript(box, 'j.jsonl', [prompt('go'), tool('Write', `${box.root}-old/x`)]);
  assert.ok(
    hook(box, 'stop.sh', { session_id: 's1', transcript_path: oldRoot, cwd: box.work }).context,
    'ROOT-old is not bookkeeping',
  );
  const gitWrite = transcript(box, 'k.jsonl', [prompt('go'), bash('cd x && git -C . commit -m "goal.sh now"')]);
  assert.ok(hook(box, 'stop.sh', { session_id: 's1', transcript_path: gitWrite, cwd: box.work }).context);
  const earlierTurn = transcript(box, 'l.jsonl', [prompt('a'), tool('Edit', '/x'), prompt('b'), tool('Read', '/x')]);
  assert.equal(
    hook(box, 'stop.sh', { session_id: 's1', transcript_path: earlierTurn, cwd: box.work }).context,
    undefined,
  );
});

test('H4 lint dedupe: a finding set is reported once; counts alone are nothing new', () => {
  const box = started({ session: 's1' });
  const touchedTurn = transcript(box, 't.jsonl', [prompt('go'), tool('Edit', box.state)]);
  const stop = () => hook(box, 'stop.sh', { session_id: 's1', transcript_path: touchedTurn, cwd: box.work }).context;
  const addDecided = (line: string) =>
    writeFileSync(box.state, readFileSync(box.state, 'utf8').replace('## Open\n', `${line}\n## Open\n`));
  addDecided('- use tabs');
  const first = stop() ?? '';
  assert.deepEqual(first.split('\n'), [
    'Orchestrate state lint:',
    "lint: decided-unattributed: 1 ## Decided line(s) lack '(<who>, YYYY-MM-DD)'; a ruling names who made it, anything else is not a ruling",
    `Read the head and the sections named, fix what is wrong with small Edits, then run bash ${box.plugin}/scripts/goal.sh touch.`,
    'Do not repeat your previous reply; end the turn with at most one line.',
    '',
  ]);
  assert.equal(stop(), undefined);
  addDecided('- use spaces');
  assert.equal(stop(), undefined);
  mkdirSync(join(box.dir, 'reports'), { recursive: true });
  writeFileSync(join(box.dir, 'reports', 'r1.md'), 'x');
  script(box, 'goal.sh', ['now', '[haiku] t -> r1 -> briefs/r1.md -> reports/r1.md']);
  const again = stop() ?? '';
  assert.match(again, /lint: now-finished: r1 has its report/);
  assert.match(again, /lint: decided-unattributed: 2 /);
  assert.equal(
    readFileSync(join(box.dir, '.lint-last'), 'utf8'),
    `lint: now-finished: r1 has its report; it has returned: goal.sh land r1\nlint: decided-unattributed\n`,
  );
});

test('H5 SessionStart for the owner: title, mode, lint block, head; resume source has no head; scope by cwd', () => {
  const box = started({ session: 's1' });
  writeFileSync(box.state, readFileSync(box.state, 'utf8').replace('## Open\n', '- use tabs\n## Open\n'));
  const { json, context } = hook(box, 'session-start.sh', { session_id: 's1', source: 'clear', cwd: box.work });
  assert.equal(json.hookSpecificOutput.hookEventName, 'SessionStart');
  assert.equal(json.hookSpecificOutput.sessionTitle, 'orchestrate: docs-pass');
  const text = context ?? '';
  assert.ok(text.startsWith('## Orchestrate: docs-pass\n(injected by the SessionStart hook; source=clear)\n\n'));
  assert.match(
    text,
    /\nOrchestrate mode is active: load the \/orchestrate skill with "resume" before anything else\.\n/,
  );
  assert.match(
    text,
    /\nState file lint \(fix what is wrong; a finding you judged wrong may stay\):\nlint: decided-unattributed: 1 /,
  );
  assert.match(
    text,
    /\n--- head of .*state\.md ---\n<!-- state: [^]*## Now\n- \(nothing running\)\n[^]*\n--- end head ---\n$/,
  );
  assert.doesNotMatch(text, /^## Decided$/m, 'nothing below the end marker');
  assert.doesNotMatch(
    hook(box, 'session-start.sh', { session_id: 's1', source: 'resume', cwd: box.work }).context ?? '',
    /--- head of/,
  );
  assert.match(hook(box, 'session-start.sh', { session_id: 's1', cwd: box.work }).context ?? '', /source=unknown/);
  mkdirSync(join(box.work, 'sub'));
  mkdirSync(`${box.work}-x`);
  assert.ok(hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: join(box.work, 'sub') }).context);
  assert.equal(
    hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: `${box.work}-x` }).context,
    undefined,
  );
  assert.equal(
    hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: box.base }).context,
    undefined,
  );
  assert.equal(
    hook(box, 'session-start.sh', { session_id: 's2', source: 'startup', cwd: box.work }).context,
    undefined,
  );
});

test('H6 crash warning and lost agents', () => {
  const box = started({ session: 's1' });
  script(box, 'goal.sh', ['now', '[sonnet] t -> tk -> /x/brief.md -> /x/none.md']);
  script(box, 'goal.sh', ['now', '[sonnet] u -> home -> ~/brief.md -> ~/none.md']);
  const old = new Date(Date.now() - 2 * 3600_000);
  utimesSync(box.state, old, old);
  const current = transcript(box, 'current.jsonl', [prompt('hi')]);
  const previous = transcript(box, 'old.jsonl', [prompt('earlier')]);
  const { context } = hook(box, 'session-start.sh', {
    session_id: 's1',
    source: 'startup',
    cwd: box.work,
    transcript_path: current,
  });
  const text = context ?? '';
  assert.match(
    text,
    new RegExp(
      `\\n\\nPrevious transcript ${previous} was last written \\S+Z,\\nAFTER the state file \\(\\d\\d:\\d\\d:\\d\\dZ\\), so it may hold work the file lacks\\n`,
    ),
  );
  assert.match(
    text,
    new RegExp(
      `ask a haiku agent a specific question of: bash ${box.plugin}/scripts/transcript-text\\.sh <transcript> --since <ISO>\\.\\nNever /resume it\\.\\n`,
    ),
  );
  assert.match(
    text,
    /\n\nNow entry tk has no report yet: still running or lost - check before relaunching from \/x\/brief\.md\.\n/,
  );
  assert.match(
    text,
    new RegExp(
      `Now entry home has no report yet: still running or lost - check before relaunching from ${box.home}/brief\\.md\\.`,
    ),
  );
  utimesSync(box.state, new Date(), new Date());
  assert.doesNotMatch(
    hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: box.work, transcript_path: current })
      .context ?? '',
    /Previous transcript/,
  );
});

test('H7 /clear hand-off: SessionEnd marks cleared, only a clear SessionStart claims, logout keeps the owner', () => {
  const box = started({ session: 's1' });
  const t = transcript(box, 't.jsonl', [prompt('x')]);
  assert.equal(
    hook(box, 'session-end.sh', { session_id: 's1', reason: 'clear', transcript_path: t, cwd: box.work }).run.stdout,
    '',
  );
  assert.match(
    readFileSync(join(box.dir, 'log.md'), 'utf8'),
    new RegExp(`\\n- \\S+Z session ended \\(clear\\) goal:docs-pass\\n  - transcript: ${t}\\n$`),
  );
  assert.match(pointer(box), /\nsession=cleared:s1\n$/);
  assert.equal(
    hook(box, 'session-start.sh', { session_id: 's3', source: 'startup', cwd: box.work }).context,
    undefined,
  );
  assert.ok(hook(box, 'session-start.sh', { session_id: 's2', source: 'clear', cwd: box.work }).context);
  assert.match(pointer(box), /\nsession=s2\n$/);
  hook(box, 'session-end.sh', { session_id: 's2', reason: 'logout', cwd: box.work });
  assert.match(pointer(box), /\nsession=s2\n$/);
  assert.match(
    readFileSync(join(box.dir, 'log.md'), 'utf8'),
    /session ended \(logout\) goal:docs-pass\n  - transcript: unknown\n$/,
  );
  const before = readFileSync(join(box.dir, 'log.md'), 'utf8');
  hook(box, 'session-end.sh', { session_id: 's9', reason: 'logout', cwd: box.work });
  assert.equal(readFileSync(join(box.dir, 'log.md'), 'utf8'), before, 'a non-owner writes nothing');
});

test('H8 rotation keeps the old bytes; the scratch report names the total', () => {
  const box = started({ session: 's1' });
  const log = join(box.dir, 'log.md');
  const old = 'x'.repeat(3000) + '\n';
  writeFileSync(log, old);
  hook(
    box,
    'session-start.sh',
    { session_id: 's1', source: 'startup', cwd: box.work },
    { STATE_LOG_ROTATE_BYTES: '1024' },
  );
  const [archived] = readdirSync(join(box.dir, 'archive'));
  assert.match(archived ?? '', /^log\.\d{8}T\d{6}Z\.md$/);
  assert.equal(readFileSync(join(box.dir, 'archive', archived as string), 'utf8'), old);
  assert.match(
    readFileSync(log, 'utf8'),
    new RegExp(`^- \\S+Z rotated: earlier entries are in archive/${archived?.replace(/\./g, '\\.')}\\n$`),
  );
  writeFileSync(join(box.dir, 'scratch', 'big'), Buffer.alloc(3_000_000, 1));
  const { context } = hook(
    box,
    'session-start.sh',
    { session_id: 's1', source: 'startup', cwd: box.work },
    { STATE_SCRATCH_REPORT_MB: '1' },
  );
  assert.match(
    context ?? '',
    new RegExp(
      `\\n\\nScratch in ${box.root}/\\*/scratch totals 3 MB \\(report threshold 1 MB\\)\\. Offer the user a cleanup: list each scratch dir with its size and whether its goal is stopped; delete only what they name\\.\\n`,
    ),
  );
  assert.doesNotMatch(
    hook(box, 'session-start.sh', { session_id: 's1', source: 'startup', cwd: box.work }).context ?? '',
    /Scratch in/,
  );
});

test('native face: baton hook ... --profile orchestrate speaks baton, and is silent without a goal', async () => {
  const { baton } = await import('./helpers.js');
  const empty = sandbox();
  const quiet = baton(empty, ['hook', 'SessionStart', '--profile', 'orchestrate'], { input: '{"session_id":"s1"}' });
  assert.deepEqual([quiet.status, quiet.stdout, quiet.stderr], [0, '', '']);
  assert.ok(!existsSync(join(empty.home, '.claude')));
  const box = started({ session: 's1' });
  const edit = transcript(box, 'e.jsonl', [prompt('go'), tool('Edit', `${box.work}/src.py`)]);
  const run = baton(box, ['hook', 'Stop', '--profile', 'orchestrate'], {
    input: JSON.stringify({ session_id: 's1', transcript_path: edit, cwd: box.work }),
  });
  assert.equal(run.stderr, '');
  const context = JSON.parse(run.stdout).hookSpecificOutput.additionalContext as string;
  assert.match(context, /then run baton goal touch\.\n/);
  const garbage = baton(box, ['hook', 'Stop', '--profile', 'orchestrate'], { input: '\u0000{{{' });
  assert.deepEqual([garbage.status, garbage.stdout, garbage.stderr], [0, '', '']);
});

test('the scratch report counts ROOT/*/scratch as the glob does: hidden folders are not goals', () => {
  const box = started({ session: 's1' });
  mkdirSync(join(box.root, '.old', 'scratch'), { recursive: true });
  writeFileSync(join(box.root, '.old', 'scratch', 'big'), Buffer.alloc(3_000_000, 1));
  const start = () =>
    hook(
      box,
      'session-start.sh',
      { session_id: 's1', source: 'startup', cwd: box.work },
      { STATE_SCRATCH_REPORT_MB: '1' },
    ).context ?? '';
  assert.doesNotMatch(start(), /Scratch in/);
  writeFileSync(join(box.dir, 'scratch', 'big'), Buffer.alloc(3_000_000, 1));
  assert.match(start(), /totals 3 MB \(report threshold 1 MB\)/);
});
