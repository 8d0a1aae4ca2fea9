import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goalVerb, isGhWrite, isGitWrite, ranGoal, segments } from '../../src/goal/hooks/commands.js';
import { findingKey } from '../../src/goal/hooks/stop.js';
import { extractHead } from '../../src/goal/hooks/head.js';

/** The Stop hook's reading of Bash commands, with the original workflow's own examples. */
test('segments split at && || ; | newline ( {', () => {
  assert.deepEqual(segments('a && b || c; d | e\nf (g {h)'), ['a ', ' b ', ' c', ' d ', ' e', 'f ', 'g ', 'h)']);
});

test('goal.sh start/resume count only as a command, behind prefixes', () => {
  for (const yes of [
    'bash /p/scripts/goal.sh resume goal',
    'bash "$CLAUDE_PLUGIN_ROOT/scripts/goal.sh" resume',
    'x=1 timeout 5 sh ./goal.sh start a b',
    'echo hi; goal.sh resume',
    'goal.sh start-x',
    'baton goal resume x',
  ]) {
    assert.ok(ranGoal(yes, ['start', 'resume']), yes);
  }
  for (const no of [
    'goal.sh list',
    "grep -rn 'goal.sh resume' docs/",
    'echo "goal.sh start"',
    "sed -n '1,20p' /p/goal.sh",
    'cat README.md | grep goal.sh resume',
    'goal.sh resumed',
    'bash -x goal.sh resume',
  ]) {
    assert.ok(!ranGoal(no, ['start', 'resume']), no);
  }
  assert.equal(goalVerb('env FOO=1 goal.sh land x'), 'land');
});

test('git writes and reads', () => {
  for (const yes of [
    'git commit -m x',
    'git -C /r push',
    'git --no-pager -c a=b merge main',
    'git worktree add ../x',
    'git branch -D old',
    'git stash',
    'git checkout)',
    'nohup git pull',
  ]) {
    assert.ok(isGitWrite(yes), yes);
  }
  for (const no of [
    'git status',
    'git log',
    'git diff',
    'git branch -a',
    'git worktree list',
    'git stash list',
    'git stash show',
    'git merge-base a b',
    'git push --dry-run',
    'git push -n origin',
    'echo git commit',
    'git commit --dry-run=x',
    'git log --grep "git commit"',
  ]) {
    assert.ok(!isGitWrite(no), no);
  }
  assert.ok(!isGitWrite('git -c "x=--dry-run" log'));
});

test('gh writes and reads', () => {
  for (const yes of [
    'gh pr create -t x',
    'gh issue comment 3',
    'gh release upload v1 f',
    'gh api -XPATCH repos/x',
    'gh api -X PATCH x',
    'gh api --method POST x',
    'gh api --method=post x',
    'gh api repos/x -f a=b',
    'gh api x --input f',
  ]) {
    assert.ok(isGhWrite(yes, yes), yes);
  }
  for (const no of [
    'gh pr view',
    'gh pr list',
    'gh pr checks',
    'gh issue view 3',
    'gh release view',
    'gh api repos/x',
    'gh api -X GET x -f a=b',
    "gh api graphql -f query='query { viewer }'",
  ]) {
    assert.ok(!isGhWrite(no, no), no);
  }
  assert.ok(isGhWrite("gh api graphql -f query='mutation { x }'", "gh api graphql -f query='mutation { x }'"));
  assert.ok(isGhWrite('gh api graphql -F query=@q.graphql', 'gh api graphql -F query=@q.graphql'));
});

test('finding keys: whole line for now-finished/pending, per section for section-stale, else the code', () => {
  assert.equal(findingKey('lint: now-finished: a has its report'), 'lint: now-finished: a has its report');
  assert.equal(
    findingKey('lint: section-stale: ## Awaiting user unchanged while Done grew by 5; x'),
    'lint: section-stale: ## Awaiting user',
  );
  assert.equal(findingKey('lint: done-long: 25 ## Done entries (> 20); x'), 'lint: done-long');
});

test('head extraction: caps, notices, and a newline before the end line', () => {
  const long = Array.from({ length: 45 }, (_, i) => `l${i}`).join('\n') + '\n<!-- end head -->\nbody\n';
  assert.match(
    extractHead(long),
    /^l0\n[^]*l39\n\n\[head truncated at 40 lines - move detail below the end-of-head line\]\n$/,
  );
  assert.equal(extractHead('a\nb\n'), 'a\nb\n\n[no "<!-- end head -->" line - showing the first 40 lines only]\n');
  assert.equal(extractHead('a\nx <!-- end head --> y\nbody'), 'a\n');
  const wide = extractHead(`${'é'.repeat(3000)}\n<!-- end head -->\n`);
  assert.ok(Buffer.byteLength(wide) <= 4000 && !wide.includes('\ufffd'));
});

test('rotation never overwrites: a second rotation in the same second is skipped', async () => {
  const { writeFileSync, readFileSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { rotateLog } = await import('../../src/goal/log-file.js');
  const { tempDir } = await import('../helpers/fixtures.js');
  const dir = tempDir('baton-rotate-');
  const now = new Date('2026-03-04T09:05:07Z');
  writeFileSync(join(dir, 'log.md'), 'a'.repeat(100));
  assert.equal(rotateLog(dir, 10, now), true);
  writeFileSync(join(dir, 'log.md'), 'b'.repeat(100));
  assert.equal(rotateLog(dir, 10, now), false);
  assert.equal(readFileSync(join(dir, 'archive', 'log.20260304T090507Z.md'), 'utf8'), 'a'.repeat(100));
  assert.equal(readFileSync(join(dir, 'log.md'), 'utf8'), 'b'.repeat(100));
  assert.deepEqual(readdirSync(join(dir, 'archive')), ['log.20260304T090507Z.md']);
  assert.equal(rotateLog(dir, 100, now), false, 'strictly larger than the threshold');
});
