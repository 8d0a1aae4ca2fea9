/**
 * The shared temp folder is hostile ground: another user can plant a symlink where baton logs, or
 * create the folder baton caches in before baton does. And stdin is the caller's: a payload file
 * given as `< payload.json` must come out of a hook exactly as it went in.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const UID = process.getuid?.() ?? 0;
const NOBODY = 65534;

/** Runs `baton ARGS` with stdin from a file (a real `< file` redirection, not a pipe). */
function batonFromFile(args: string[], stdinFile: string, cwd: string, env: Record<string, string>) {
  const fd = openSync(stdinFile, 'r');
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd,
      env: cleanEnv(env),
      stdio: [fd, 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe('temp files of hooks and the status line', () => {
  it('the hook debug log never writes through a symlink planted in the temp folder', (t) => {
    const p = tempTree({
      'baton.config.json': JSON.stringify({ profile: 'eneo' }),
      'victim.txt': 'do not touch\n',
      'garbage.txt': 'not json',
    });
    t.after(p.cleanup);
    const tmp = join(p.dir, 'tmp');
    mkdirSync(tmp);
    const victim = join(p.dir, 'victim.txt');
    // Where the log used to go, and where it goes now (the per-user folder itself is ours).
    symlinkSync(victim, join(tmp, 'baton-hooks.log'));
    mkdirSync(join(tmp, `baton-${UID}`), { mode: 0o700 });
    symlinkSync(victim, join(tmp, `baton-${UID}`, 'hooks.log'));
    const r = batonFromFile(['hook', 'PreToolUse'], join(p.dir, 'garbage.txt'), p.dir, {
      BATON_ROOT: p.dir,
      TMPDIR: tmp,
    });
    assert.equal(r.code, 0);
    assert.equal(readFileSync(victim, 'utf8'), 'do not touch\n');
  });

  it("the debug log goes to a 0700 folder of the user's own", (t) => {
    const p = tempTree({ 'baton.config.json': JSON.stringify({ profile: 'eneo' }), 'garbage.txt': 'not json' });
    t.after(p.cleanup);
    const tmp = join(p.dir, 'tmp');
    mkdirSync(tmp);
    assert.equal(
      batonFromFile(['hook', 'PreToolUse'], join(p.dir, 'garbage.txt'), p.dir, { BATON_ROOT: p.dir, TMPDIR: tmp }).code,
      0,
    );
    const dir = join(tmp, `baton-${UID}`);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.match(readFileSync(join(dir, 'hooks.log'), 'utf8'), /stdin was not a JSON object/);
    assert.equal(statSync(join(dir, 'hooks.log')).mode & 0o777, 0o600);
  });

  it(
    'a temp folder another user created first is not used, by the hooks nor by the status line',
    { skip: UID !== 0 && 'needs root to chown a folder to another user' },
    (t) => {
      const p = tempTree({ 'baton.config.json': JSON.stringify({ profile: 'eneo' }), 'garbage.txt': 'not json' });
      t.after(p.cleanup);
      spawnSync('git', ['init', '-q'], { cwd: p.dir });
      const tmp = join(p.dir, 'tmp');
      mkdirSync(tmp);
      // Both the folder name baton uses now and the one the status line used before.
      const planted = [join(tmp, `baton-${UID}`), join(tmp, `baton-statusline-${UID}`)];
      for (const dir of planted) {
        mkdirSync(dir);
        chmodSync(dir, 0o777);
        chownSync(dir, NOBODY, NOBODY);
      }
      const env = { BATON_ROOT: p.dir, TMPDIR: tmp };
      assert.equal(batonFromFile(['hook', 'PreToolUse'], join(p.dir, 'garbage.txt'), p.dir, env).code, 0);
      const stdin = join(p.dir, 'status.json');
      writeFileSync(
        stdin,
        JSON.stringify({ session_id: 's1', model: { display_name: 'Opus' }, workspace: { current_dir: p.dir } }),
      );
      const line = batonFromFile(['statusline'], stdin, p.dir, env);
      assert.equal(line.code, 0);
      assert.match(line.stdout, /\[Opus\]/, 'the status line still renders, uncached');
      for (const dir of planted) assert.deepEqual(readdirSync(dir), [], `${dir} stays empty`);
    },
  );
});

describe('stdin given as a regular file', () => {
  it('a large payload file is read, never written: it is byte for byte the same afterwards', (t) => {
    const p = tempTree({ 'baton.config.json': JSON.stringify({ profile: 'eneo' }) });
    t.after(p.cleanup);
    // 20 MB that never parses as one JSON value: the old reader kept re-parsing it until its
    // timeout fired, then wrote into /proc/self/fd/0, which truncated this file.
    const payload = join(p.dir, 'payload.json');
    const fd = openSync(payload, 'w');
    const chunk = Buffer.from('{}'.repeat(512 * 1024));
    for (let i = 0; i < 20; i++) writeSync(fd, chunk);
    closeSync(fd);
    const before = readFileSync(payload);
    for (const event of ['PreToolUse', 'UserPromptSubmit']) {
      const r = batonFromFile(['hook', event], payload, p.dir, {
        BATON_ROOT: p.dir,
        BATON_DEBUG_LOG: join(p.dir, 'debug.log'),
      });
      assert.equal(r.code, 0, r.stderr);
    }
    assert.ok(readFileSync(payload).equals(before), 'the payload file is unchanged');
  });

  it('a payload file is answered like the same payload on a pipe', (t) => {
    const p = tempTree({ 'baton.config.json': JSON.stringify({ profile: 'eneo' }), 'src/app.ts': '' });
    t.after(p.cleanup);
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.dir, 'src/app.ts'), content: 'x' },
      session_id: 's',
    });
    writeFileSync(join(p.dir, 'payload.json'), payload);
    const env = { BATON_ROOT: p.dir, BATON_DEBUG_LOG: join(p.dir, 'debug.log') };
    const fromFile = batonFromFile(['hook', 'PreToolUse'], join(p.dir, 'payload.json'), p.dir, env);
    const fromPipe = spawnSync(process.execPath, [BIN, 'hook', 'PreToolUse'], {
      cwd: p.dir,
      env: cleanEnv(env),
      input: payload,
      encoding: 'utf8',
    });
    assert.equal(fromFile.code, fromPipe.status);
    assert.equal(fromFile.stdout, fromPipe.stdout);
    assert.equal(readFileSync(join(p.dir, 'payload.json'), 'utf8'), payload);
  });
});
