/**
 * No command writes outside the project through a symlink. Each case links a folder baton writes
 * into (the run folder, `.baton/`, the Eneo state, stats and context folders, a goal folder) to a
 * folder outside, runs the real CLI or hook, and checks that the outside folder is exactly as it
 * was. baton's own commands refuse with exit 4; faces whose exit codes a spec fixes refuse with
 * their refusal code (`baton goal`: 1, `baton task`: 1); hooks fail open (exit 0) and write nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDoc } from '../../src/index.js';
import { baton } from '../helpers/cli.js';
import { eneoProject, startTask, TASK } from '../harness/helpers.js';
import { tempTree } from '../helpers/fixtures.js';

function outsideFolder(files: Record<string, string> = {}): {
  dir: string;
  listing(): Record<string, string>;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'baton-outside-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const listing = (): Record<string, string> => {
    const out: Record<string, string> = {};
    const walk = (at: string, prefix: string): void => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const rel = `${prefix}${entry.name}`;
        if (entry.isDirectory()) walk(join(at, entry.name), `${rel}/`);
        else out[rel] = readFileSync(join(at, entry.name), 'utf8');
      }
    };
    walk(dir, '');
    return out;
  };
  return { dir, listing, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('a folder baton writes into, linked outside the project', () => {
  it('run clean refuses a symlinked .ai_log (exit 4) and deletes nothing outside, with or without --force', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder({ 'evidence.log': 'precious', 'notes.md': 'keep me' });
    t.after(() => (p.cleanup(), outside.cleanup()));
    symlinkSync(outside.dir, join(p.dir, '.ai_log'));
    for (const args of [
      ['run', 'clean'],
      ['run', 'clean', '--force'],
      ['run', 'clean', '--older-than', '0s'],
    ]) {
      const r = baton(args, { cwd: p.dir });
      assert.equal(r.code, 4, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /symlink/);
    }
    assert.deepEqual(outside.listing(), { 'evidence.log': 'precious', 'notes.md': 'keep me' });
  });

  it('.baton/ linked outside: init, update and set refuse with exit 4 and write nothing there', (t) => {
    const p = tempTree({ '.git/HEAD': '', 'd.json': '{"n":1}\n' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    symlinkSync(outside.dir, join(p.dir, '.baton'));
    for (const args of [
      ['init', 'new.json', '--argjson', 'n', '0'],
      ['update', 'd.json', '.n += 1'],
      ['set', 'd.json', 'n', '5'],
    ]) {
      const r = baton(args, { cwd: p.dir });
      assert.equal(r.code, 4, `${args.join(' ')}: ${r.stderr}`);
    }
    assert.deepEqual(outside.listing(), {});
    assert.equal(readFileSync(join(p.dir, 'd.json'), 'utf8'), '{"n":1}\n', 'the document is unchanged');
    // A read of the document opens nothing in .baton/ (layout.ts, checkedDocFile): it answers. Its
    // history lives there, and is refused as a write is.
    const get = baton(['get', 'd.json', '.n'], { cwd: p.dir });
    assert.deepEqual([get.code, get.stdout, get.stderr], [0, '1\n', '']);
    assert.equal(baton(['history', 'd.json'], { cwd: p.dir }).code, 4);
  });

  it('a history folder inside .baton/ linked outside is refused too', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    rmSync(join(p.dir, '.baton', 'd.json.history'), { recursive: true });
    symlinkSync(outside.dir, join(p.dir, '.baton', 'd.json.history'));
    assert.equal(baton(['update', 'd.json', '.n += 1'], { cwd: p.dir }).code, 4);
    assert.deepEqual(outside.listing(), {});
  });

  it('a dangling link planted in .baton/ is never written through', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    mkdirSync(join(p.dir, '.baton'));
    symlinkSync(join(outside.dir, 'planted'), join(p.dir, '.baton', '.gitignore'));
    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    assert.deepEqual(outside.listing(), {});
  });

  it('a history segment file linked outside is never appended to', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder({ 'victim.jsonl': 'precious\n' });
    t.after(() => (p.cleanup(), outside.cleanup()));
    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    const segment = join(p.dir, '.baton', 'd.json.history', '000000000001.jsonl');
    writeFileSync(join(outside.dir, 'victim.jsonl'), readFileSync(segment));
    const before = outside.listing();
    rmSync(segment);
    symlinkSync(join(outside.dir, 'victim.jsonl'), segment);
    assert.equal(baton(['update', 'd.json', '.n += 1'], { cwd: p.dir }).code, 4);
    assert.deepEqual(outside.listing(), before);
  });

  it('a history segment hard-linked to a file outside is neither appended to nor truncated', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    const segment = join(p.dir, '.baton', 'd.json.history', '000000000001.jsonl');
    const victim = join(outside.dir, 'victim.jsonl');
    // The same bytes under a second name outside: O_NOFOLLOW cannot tell it from the original.
    writeFileSync(victim, readFileSync(segment));
    rmSync(segment);
    linkSync(victim, segment);
    const before = outside.listing();
    const docBefore = readFileSync(join(p.dir, 'd.json'), 'utf8');
    const r = baton(['update', 'd.json', '.n += 1'], { cwd: p.dir });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /hard links/);
    assert.deepEqual(outside.listing(), before);
    assert.equal(readFileSync(join(p.dir, 'd.json'), 'utf8'), docBefore, 'the document is unchanged');
  });

  it('store export to a name linked outside the project writes nothing there', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder({ 'victim.txt': 'precious\n' });
    t.after(() => (p.cleanup(), outside.cleanup()));
    assert.equal(baton(['init', 'd.json', '--argjson', 'n', '0'], { cwd: p.dir }).code, 0);
    symlinkSync(join(outside.dir, 'victim.txt'), join(p.dir, 'export.jsonl'));
    symlinkSync(join(outside.dir, 'planted'), join(p.dir, 'dangling.jsonl'));
    mkdirSync(join(outside.dir, 'dir'));
    symlinkSync(join(outside.dir, 'dir'), join(p.dir, 'out'));
    for (const file of ['export.jsonl', 'dangling.jsonl', 'out/export.jsonl']) {
      const r = baton(['store', 'export', file], { cwd: p.dir });
      assert.equal(r.code, 4, `${file}: ${r.stderr}`);
      assert.match(r.stderr, /symlink/, file);
    }
    assert.deepEqual(outside.listing(), { 'victim.txt': 'precious\n' });
    const plain = baton(['store', 'export', 'plain.jsonl'], { cwd: p.dir });
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(readFileSync(join(p.dir, 'plain.jsonl'), 'utf8'), /d\.json/);
  });

  it('goal start never appends through a symlinked .git/info/exclude', (t) => {
    const home = tempTree();
    const work = tempTree();
    const outside = outsideFolder({ 'victim.txt': 'precious\n' });
    t.after(() => (home.cleanup(), work.cleanup(), outside.cleanup()));
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: work.dir }).status, 0);
    mkdirSync(join(work.dir, '.git', 'info'), { recursive: true });
    rmSync(join(work.dir, '.git', 'info', 'exclude'), { force: true });
    symlinkSync(join(outside.dir, 'victim.txt'), join(work.dir, '.git', 'info', 'exclude'));
    const env = { HOME: home.dir, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const r = baton(['goal', 'start', 'g1', 'ship', 'it'], { cwd: work.dir, env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(outside.listing(), { 'victim.txt': 'precious\n' });
  });

  it("a goal's log.md hard-linked to a file outside is never appended to: goal close refuses", (t) => {
    const home = tempTree();
    const work = tempTree();
    const outside = outsideFolder({ 'victim.md': 'precious\n' });
    t.after(() => (home.cleanup(), work.cleanup(), outside.cleanup()));
    const env = { HOME: home.dir };
    assert.equal(baton(['goal', 'start', 'g1', 'ship', 'it'], { cwd: work.dir, env }).code, 0);
    const log = join(home.dir, '.claude', 'orchestrate', 'g1', 'log.md');
    rmSync(log, { force: true });
    linkSync(join(outside.dir, 'victim.md'), log);
    assert.notEqual(baton(['goal', 'close'], { cwd: work.dir, env }).code, 0);
    assert.deepEqual(outside.listing(), { 'victim.md': 'precious\n' });
  });

  it('.claude/state linked outside: task commands and the wave barrier write nothing there', (t) => {
    const p = eneoProject();
    const wave = `${JSON.stringify({ wave: 1, expected: 2, done: 0, status: 'in-progress' }, null, 2)}\n`;
    const outside = outsideFolder({ 'wave.json': wave });
    t.after(() => (p.cleanup(), outside.cleanup()));
    mkdirSync(join(p.dir, '.claude'));
    symlinkSync(outside.dir, join(p.dir, '.claude', 'state'));
    for (const args of [['init', '--', 'demo', 'deep', '4', 'none', 'appends'], ['phase-set', 'FREE'], ['clear']]) {
      const r = p.task(args);
      assert.notEqual(r.code, 0, `task ${args.join(' ')} must refuse`);
    }
    assert.equal(baton(['init', TASK, '--argjson', 'n', '0'], { cwd: p.dir, env: p.env }).code, 4);
    const hook = p.hook('SubagentStop', {
      hook_event_name: 'SubagentStop',
      agent_id: 'a1',
      agent_type: 'x',
      last_assistant_message: 'DONE|out.md',
      stop_hook_active: false,
    });
    assert.equal(hook.code, 0, 'a hook fails open');
    assert.deepEqual(outside.listing(), { 'wave.json': wave });
  });

  it('.claude/stats and .claude/context linked outside: the audit and PreCompact hooks write nothing there', (t) => {
    const p = eneoProject({ '.claude/phases/demo/scratchpad/notes.md': 'scratch' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    startTask(p);
    mkdirSync(join(outside.dir, 'stats'));
    mkdirSync(join(outside.dir, 'context'));
    symlinkSync(join(outside.dir, 'stats'), join(p.dir, '.claude', 'stats'));
    symlinkSync(join(outside.dir, 'context'), join(p.dir, '.claude', 'context'));
    assert.equal(
      p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'hello', session_id: 's' }).code,
      0,
    );
    assert.equal(p.hook('PreCompact', { hook_event_name: 'PreCompact', trigger: 'manual', session_id: 's' }).code, 0);
    assert.deepEqual(outside.listing(), {});
    assert.match(p.read('.debug.log'), /symlink/, 'the debug log says why');
  });

  it("a goal folder or the archive linked outside: goal start and close refuse (the workflow's exit 1)", (t) => {
    const home = tempTree();
    const work = tempTree();
    const outside = outsideFolder();
    t.after(() => (home.cleanup(), work.cleanup(), outside.cleanup()));
    const env = { HOME: home.dir };
    const goals = join(home.dir, '.claude', 'orchestrate');
    mkdirSync(goals, { recursive: true });
    symlinkSync(outside.dir, join(goals, 'linked'));
    const start = baton(['goal', 'start', 'linked', 'ship', 'it'], { cwd: work.dir, env });
    assert.equal(start.code, 1);
    assert.match(start.stderr, /^baton goal: goal 'linked' path .* leads outside .* through a symlink/);
    assert.deepEqual(outside.listing(), {});

    assert.equal(baton(['goal', 'start', 'real', 'ship', 'it'], { cwd: work.dir, env }).code, 0);
    symlinkSync(outside.dir, join(goals, 'archive'));
    assert.equal(baton(['goal', 'close'], { cwd: work.dir, env }).code, 1);
    assert.deepEqual(outside.listing(), {});
    assert.match(
      readFileSync(join(goals, 'real', 'state.md'), 'utf8'),
      /status: active|status=active|active/,
      'the goal was not closed',
    );
  });

  it('the library refuses the same way (unsafe_path), and so does install --project for a linked .claude', async (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    symlinkSync(outside.dir, join(p.dir, '.baton'));
    const doc = openDoc('d.json', { cwd: p.dir, env: { BATON_ROOT: p.dir } });
    await assert.rejects(doc.init({ n: 0 }), (error: { code?: string }) => error.code === 'unsafe_path');
    rmSync(join(p.dir, '.baton'));
    symlinkSync(outside.dir, join(p.dir, '.claude'));
    assert.equal(baton(['install', 'claude', '--project'], { cwd: p.dir }).code, 4);
    assert.deepEqual(outside.listing(), {});
  });

  it('a project reached through a symlink still works (only links leading out are refused)', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const links = tempTree();
    t.after(() => (p.cleanup(), links.cleanup()));
    const via = join(links.dir, 'project');
    symlinkSync(p.dir, via);
    mkdirSync(join(p.dir, 'real-state'));
    symlinkSync(join(p.dir, 'real-state'), join(p.dir, 'state'));
    assert.equal(baton(['init', 'state/d.json', '--argjson', 'n', '0'], { cwd: via }).code, 0);
    assert.equal(baton(['update', 'state/d.json', '.n += 1'], { cwd: via }).code, 0);
    assert.equal(baton(['get', 'state/d.json', '.n'], { cwd: via }).stdout, '1\n');
  });
});
