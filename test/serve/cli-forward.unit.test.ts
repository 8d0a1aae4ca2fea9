/**
 * A command baton serve runs for a CLI client reads the caller's environment, never the server's
 * own (serve/cli-forward.ts): run here with process.env replaced by one that records each name
 * read, every forwarded command in its forms, and the names read must be SAME_ENV's only (the
 * server answers only a caller whose values of those are its own).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { recordingEnv } from '../helpers/recording-env.js';
import { runForwarded } from '../../src/serve/cli-forward.js';
import { SAME_ENV, type CliResult } from '../../src/serve/cli-protocol.js';

const COMMANDS = [
  ['get', 'doc.json', '.n'],
  ['get', 'doc.json', '.s', '--raw', '--default', 'x'],
  ['update', 'doc.json', '.n += 1'],
  ['update', 'doc.json', '.n +'],
  ['update', 'missing.json', '.n = 1', '--if-exists'],
  ['set', 'doc.json', 's', 'hello'],
  ['set', 'doc.json', 'obj', '{"a":1}', '--json', '--as', 'alice'],
  ['append', 'doc.json', 'list', 'x'],
  ['consume', 'doc.json', 's'],
  ['update', 'sdoc.json', '.n = -1'],
  ['--store', 'file:', 'get', 'doc.json', '.n'],
  ['get', 'bad.json', '.x'],
  ['update', 'bad.json', '.x = 1'],
  ['clear', 'doc2.json'],
  ['get', '--help'],
];

describe('a forwarded command and the server’s environment', () => {
  it('reads the caller’s environment only: of the server’s own, SAME_ENV’s names at most', async () => {
    const dir = tempDir('baton-forward-env-');
    writeFileSync(join(dir, 'bad.json'), 'not json\n');
    writeFileSync(
      join(dir, 'counter.schema.json'),
      JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] }),
    );
    const caller = cleanEnv({ BATON_ROOT: dir, BATON_WRITER: 'caller' }) as Record<string, string>;
    for (const args of [
      ['init', 'doc.json', '--argjson', 'n', '1'],
      ['init', 'doc2.json'],
      ['init', 'sdoc.json', '--schema', 'counter.schema.json', '--argjson', 'n', '1'],
    ])
      assert.equal((await batonInProcess(args, { cwd: dir, env: { BATON_ROOT: dir } })).code, 0);
    const own = process.env;
    const server = recordingEnv({ ...own }, { enumeration: true });
    process.env = server.env;
    const exits: number[] = [];
    try {
      for (const argv of COMMANDS)
        exits.push(
          (
            (await runForwarded({
              version: 'v',
              build: 'b',
              argv,
              cwd: dir,
              env: { ...caller },
              uid: 0,
              gid: 0,
              umask: 0o22,
              context: '',
            })) as CliResult
          ).exit,
        );
    } finally {
      process.env = own;
    }
    assert.deepEqual(exits, [0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0, 7, 0, 0]);
    // Node reads NODE_V8_COVERAGE itself (from the current process.env) whenever it compiles a
    // module or starts a child: a module first loaded inside this window, as on a slower machine
    // with coverage on, is Node's read, not the command's.
    const allowed = [...SAME_ENV, 'NODE_V8_COVERAGE'];
    assert.deepEqual(
      [...server.read].filter((name) => !allowed.includes(name)),
      [],
    );
  });
});
