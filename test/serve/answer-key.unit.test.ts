/**
 * The key baton serve signs hook answers with (serve/answer-key.ts), in process on real files: made
 * once, 0600 in a 0700 folder outside the project, and refused, naming the fix, when anyone else
 * could read or replace it, so a key an agent could learn never makes its server's answers believed.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isBatonError } from '../../src/core/errors.js';
import { answerKey, answerKeyPath } from '../../src/serve/answer-key.js';
import { tempDir } from '../helpers/fixtures.js';

describe('the answer key', () => {
  it('lives in $XDG_STATE_HOME/baton, else ~/.local/state/baton; made once 0600 in a 0700 folder, then the same key', () => {
    const home = tempDir();
    assert.equal(answerKeyPath({ HOME: home }), join(home, '.local', 'state', 'baton', 'serve.key'));
    assert.equal(answerKeyPath({ HOME: home, XDG_STATE_HOME: join(home, 's') }), join(home, 's', 'baton', 'serve.key'));
    const env = { HOME: home };
    const key = answerKey(env);
    assert.match(key, /^[\w-]{32,}$/);
    assert.equal(statSync(answerKeyPath(env)).mode & 0o777, 0o600);
    assert.equal(statSync(join(answerKeyPath(env), '..')).mode & 0o777, 0o700);
    assert.equal(answerKey(env), key);
    assert.equal(readFileSync(answerKeyPath(env), 'utf8'), `${key}\n`);
  });

  it('a key others could read, a link planted in its place, or a file holding no key is refused, unchanged', () => {
    const state = tempDir();
    const env = { XDG_STATE_HOME: state };
    const file = answerKeyPath(env);
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const refused = (code: 'unsafe_path' | 'invalid', name: string) =>
      assert.throws(
        () => answerKey(env),
        (error) => isBatonError(error, code) && /remove it and start baton serve again/.test(error.message),
        name,
      );

    writeFileSync(file, `${'k'.repeat(43)}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    refused('unsafe_path', 'readable by others');
    assert.equal(readFileSync(file, 'utf8'), `${'k'.repeat(43)}\n`, 'never rewritten');

    const elsewhere = join(state, 'agent-key');
    writeFileSync(elsewhere, `${'a'.repeat(43)}\n`, { mode: 0o600 });
    const linked = join(tempDir(), 'state');
    mkdirSync(join(linked, 'baton'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, answerKeyPath({ XDG_STATE_HOME: linked }));
    assert.throws(
      () => answerKey({ XDG_STATE_HOME: linked }),
      (error) => isBatonError(error, 'unsafe_path'),
      'a symbolic link',
    );

    writeFileSync(file, 'short\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    refused('invalid', 'not a key');
  });
});
