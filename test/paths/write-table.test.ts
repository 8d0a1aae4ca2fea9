/**
 * The rows of the write table in docs/architecture.md ("Where baton writes files") that
 * outside.test.ts does not walk around: import, doctor repair (its document, lock, temp-file and
 * mirror repairs), the code cache and the demo folder. Each case plants a symlink or a hard link
 * leading out of the root the write belongs to, runs the real CLI, and checks that the outside
 * folder is exactly as it was.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { baton, cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

function outsideFolder(files: Record<string, string> = {}) {
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

/** An export holding `sub/d.json` (two revisions), made in a project of its own. */
function exportWithSubfolder(): string {
  const source = tempTree({ '.git/HEAD': '' });
  try {
    assert.equal(baton(['init', 'sub/d.json', '--argjson', 'n', '0'], { cwd: source.dir }).code, 0);
    assert.equal(baton(['update', 'sub/d.json', '.n = 1'], { cwd: source.dir }).code, 0);
    const r = baton(['store', 'export', 'out.jsonl'], { cwd: source.dir });
    assert.equal(r.code, 0, r.stderr);
    return readFileSync(join(source.dir, 'out.jsonl'), 'utf8');
  } finally {
    source.cleanup();
  }
}

describe('write table: import', () => {
  it("a document's folder or .baton/ linked outside: import refuses (exit 4) and writes nothing there", (t) => {
    const dump = exportWithSubfolder();
    for (const link of ['sub', 'sub/.baton']) {
      const p = tempTree({ '.git/HEAD': '', 'in.jsonl': dump });
      const outside = outsideFolder();
      t.after(() => (p.cleanup(), outside.cleanup()));
      mkdirSync(join(p.dir, 'sub'), { recursive: true });
      if (link === 'sub') rmSync(join(p.dir, 'sub'), { recursive: true });
      symlinkSync(outside.dir, join(p.dir, link));
      const r = baton(['store', 'import', 'in.jsonl'], { cwd: p.dir });
      assert.equal(r.code, 4, `${link}: ${r.stderr}`);
      assert.match(r.stderr, /symlink/);
      assert.deepEqual(outside.listing(), {}, link);
    }
  });

  it("a dangling link at the document's name leading outside is refused (exit 4), never written through", (t) => {
    const p = tempTree({ '.git/HEAD': '', 'in.jsonl': exportWithSubfolder() });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    mkdirSync(join(p.dir, 'sub'));
    symlinkSync(join(outside.dir, 'planted.json'), join(p.dir, 'sub', 'd.json'));
    const r = baton(['store', 'import', 'in.jsonl'], { cwd: p.dir });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /leaves the project root .* through a symlink.*nothing was imported/);
    assert.deepEqual(outside.listing(), {});
    assert.ok(lstatSync(join(p.dir, 'sub', 'd.json')).isSymbolicLink(), 'the link is left as it was');
    assert.ok(!existsSync(join(p.dir, 'sub', '.baton')), 'no history either');
  });
});

describe('write table: doctor --repair', () => {
  it('a folder of documents linked outside: doctor --repair removes, restores and rewrites nothing there', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (p.cleanup(), outside.cleanup()));
    // A healthy document made in place, then its folder moved outside and linked back: every
    // kind of damage the doctor repairs, planted there.
    assert.equal(baton(['init', 'state/d.json', '--argjson', 'n', '1'], { cwd: p.dir }).code, 0);
    assert.equal(baton(['update', 'state/d.json', '.n = 2'], { cwd: p.dir }).code, 0);
    cpSync(join(p.dir, 'state'), outside.dir, { recursive: true });
    rmSync(join(p.dir, 'state'), { recursive: true });
    symlinkSync(outside.dir, join(p.dir, 'state'));
    writeFileSync(join(outside.dir, 'd.json'), '{"n": 2,, garbage');
    writeFileSync(join(outside.dir, '.d.json.999999.abcdefabcdef.tmp'), '{"half":');
    writeFileSync(join(outside.dir, '.baton', 'd.json.lock'), `999999\n${hostname()}\n${Date.now()}\ntok\n1\n`);
    writeFileSync(join(outside.dir, '.baton', 'd.json.meta.json'), 'not json');
    const before = outside.listing();
    baton(['doctor', '--repair'], { cwd: p.dir });
    assert.deepEqual(outside.listing(), before);
  });

  it('metadata, a history segment or a mirror linked or hard-linked outside: the repair replaces the name, never the file outside', (t) => {
    const p = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder({ 'meta.json': 'not json', phase: 'RED\n' });
    t.after(() => (p.cleanup(), outside.cleanup()));
    const task = '.claude/state/current-task.json';
    assert.equal(baton(['init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo'], { cwd: p.dir }).code, 0);
    assert.equal(baton(['update', task, '.tdd_phase = "GREEN"'], { cwd: p.dir }).code, 0);
    const state = join(p.dir, '.claude', 'state');
    rmSync(join(state, '.baton', 'current-task.json.meta.json'));
    symlinkSync(join(outside.dir, 'meta.json'), join(state, '.baton', 'current-task.json.meta.json'));
    rmSync(join(state, 'phase'));
    symlinkSync(join(outside.dir, 'phase'), join(state, 'phase'));
    const segment = join(state, '.baton', 'current-task.json.history', '000000000001.jsonl');
    writeFileSync(join(outside.dir, 'segment.jsonl'), `${readFileSync(segment, 'utf8')}not a history line\n`);
    rmSync(segment);
    linkSync(join(outside.dir, 'segment.jsonl'), segment);
    const before = outside.listing();
    baton(['doctor', '--repair'], { cwd: p.dir });
    assert.deepEqual(outside.listing(), before);
  });
});

describe('write table: the code cache and the demo folder', () => {
  it("a bundle's .cache linked outside the install is never written into", (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}' });
    const outside = outsideFolder();
    t.after(() => (cleanup(), outside.cleanup()));
    const install = join(dir, 'install');
    cpSync(join(ROOT, 'dist'), join(install, 'dist'), { recursive: true, filter: (from) => !from.includes('.cache') });
    const build = join(
      install,
      'dist',
      'builds',
      /builds\/([^/]+)\//.exec(readFileSync(join(install, 'dist', 'cli.js'), 'utf8'))?.[1] ?? '',
    );
    symlinkSync(outside.dir, join(build, 'commands', '.cache'));
    mkdirSync(join(dir, 'tmp'));
    const r = spawnSync(process.execPath, [join(install, 'dist', 'cli.js'), 'get', 'd.json', '.a'], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ TMPDIR: join(dir, 'tmp') }),
    });
    assert.equal(r.stdout, '1\n', r.stderr);
    assert.deepEqual(outside.listing(), {});
  });

  it('baton demo --dir with .ai_log, or an evidence file in it, linked outside writes no evidence there', (t) => {
    const { dir, cleanup } = tempTree();
    const outside = outsideFolder({ 'victim.md': 'precious\n' });
    t.after(() => (cleanup(), outside.cleanup()));
    const demo = (target: string) =>
      baton(['demo', '--dir', target, '--waves', '1', '--agents', '1', '--updates', '1'], { cwd: dir });
    const linkedFolder = join(dir, 'a');
    mkdirSync(linkedFolder);
    symlinkSync(outside.dir, join(linkedFolder, '.ai_log'));
    const r = demo(linkedFolder);
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /\.ai_log.*symlink/);
    // The agent's evidence file itself linked out (run.json beside it is a plain file).
    const linkedFile = join(dir, 'b');
    mkdirSync(join(linkedFile, '.ai_log'), { recursive: true });
    symlinkSync(join(outside.dir, 'victim.md'), join(linkedFile, '.ai_log', 'wave-1-agent-1.1.md'));
    const e = demo(linkedFile);
    assert.notEqual(e.code, 0, e.stdout);
    assert.match(e.stderr, /demo evidence .*wave-1-agent-1\.1\.md leads outside .* through a symlink/);
    assert.deepEqual(outside.listing(), { 'victim.md': 'precious\n' });
  });

  it('baton serve with .baton/ linked outside refuses (exit 4) and writes no serve.json or lock there', (t) => {
    const { dir, cleanup } = tempTree({ '.git/HEAD': '' });
    const outside = outsideFolder();
    t.after(() => (cleanup(), outside.cleanup()));
    symlinkSync(outside.dir, join(dir, '.baton'));
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'baton.js'), 'serve', '--port', '0', '--idle-timeout', '1'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: cleanEnv(),
        timeout: 120_000,
        killSignal: 'SIGKILL',
      },
    );
    assert.equal(r.status, 4, r.stdout + r.stderr);
    assert.deepEqual(outside.listing(), {});
  });
});
