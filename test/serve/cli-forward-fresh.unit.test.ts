/**
 * A command baton serve runs for a CLI client sees the project's config as it is on disk now
 * (src/serve/cli-forward.ts, src/project/config-file.ts): made, broken, fixed, replaced after it
 * was kept, or removed between two forwarded commands, with reads kept as the server keeps them.
 * A config that is not valid JSON refuses every write of the task document (its rules cannot be
 * checked, src/project/document-rules.ts), so each step shows which config the command read.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { keepReads } from '../../src/fs/kept-reads.js';
import { runForwarded } from '../../src/serve/cli-forward.js';
import type { CliResult } from '../../src/serve/cli-protocol.js';
import { batonInProcess, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';

describe('a forwarded command and the config on disk', () => {
  it('reads the config each command: made, broken, fixed, replaced once kept, removed', async (t) => {
    const dir = tempDir('baton-forward-fresh-');
    const env = cleanEnv({ BATON_ROOT: dir }) as Record<string, string>;
    const task = '.claude/state/current-task.json';
    const init = ['init', task, '--schema', 'eneo-task', '--arg', 'slug', 's', '--arg', 'lane', 'deep'];
    assert.equal((await batonInProcess(init, { cwd: dir, env: { BATON_ROOT: dir } })).code, 0);
    keepReads(true);
    t.after(() => keepReads(false));
    const config = join(dir, 'baton.config.json');
    const update = async () => {
      const result = (await runForwarded({
        version: 'v',
        build: 'b',
        argv: ['update', task, '.counter += 1'],
        cwd: dir,
        env: { ...env },
        uid: 0,
        gid: 0,
        umask: 0o22,
        context: '',
      })) as CliResult;
      const err = result.output
        .filter(([fd]) => fd === 2)
        .map(([, text]) => text)
        .join('');
      return { exit: result.exit, refused: err.includes(`${config} is not valid JSON`) };
    };
    const ok = { exit: 0, refused: false };
    const broken = { exit: 2, refused: true };

    assert.deepEqual(await update(), ok, 'no config');
    writeFileSync(config, '{x\n');
    assert.deepEqual(await update(), broken, 'a broken config made since the last command');
    writeFileSync(config, '{}\n');
    assert.deepEqual(await update(), ok, 'fixed in place');
    // Settled, so the server keeps it; then a broken one of the same size is renamed over it.
    await sleep(150);
    assert.deepEqual(await update(), ok);
    assert.deepEqual(await update(), ok, 'from the kept copy');
    writeFileSync(`${config}.new`, '{y\n');
    renameSync(`${config}.new`, config);
    assert.deepEqual(await update(), broken, 'replaced after it was kept');
    rmSync(config);
    assert.deepEqual(await update(), ok, 'removed');
  });
});
