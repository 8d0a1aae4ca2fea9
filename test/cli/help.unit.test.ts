import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess as baton, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { allCommands, commandNamed, COMMANDS, helpText } from '../../src/cli/definitions.js';

// Help, usage errors and the CLI reference all come from src/cli/definitions.ts.
describe('help for every command and subcommand', () => {
  const { dir, cleanup } = tempTree();
  for (const def of allCommands()) {
    for (const sub of [undefined, ...Object.keys(def.subcommands ?? {})]) {
      const words = sub ? [def.name, sub] : [def.name];
      it(`baton help ${words.join(' ')}, --help and -h print the usage on stdout, exit 0`, async () => {
        for (const args of [
          ['help', ...words],
          [...words, '--help'],
          [...words, '-h'],
        ]) {
          const result = await baton(args, { cwd: dir });
          assert.deepEqual([result.code, result.stderr], [0, ''], `baton ${args.join(' ')}`);
          assert.equal(result.stdout, helpText(def, sub), `baton ${args.join(' ')}`);
        }
      });
    }
  }
  it('baton --help lists every command; baton help with an unknown name is a usage error', async () => {
    const list = await baton(['--help'], { cwd: dir });
    assert.equal(list.code, 0);
    for (const name of Object.keys(COMMANDS)) assert.match(list.stdout, new RegExp(`^  ${name} `, 'm'));
    assert.equal((await baton(['help', 'nope'], { cwd: dir })).code, 2);
    assert.equal((await baton(['nope'], { cwd: dir })).code, 2);
    cleanup();
  });
  it('each definition is made under its own name, and an inherited key names no command', () => {
    for (const [name, def] of Object.entries(COMMANDS)) assert.equal(def.name, name);
    assert.deepEqual(
      allCommands().map((def) => def.name),
      Object.keys(COMMANDS),
    );
    for (const name of ['constructor', 'toString', '__proto__']) assert.equal(commandNamed(name), undefined, name);
    assert.equal(commandNamed('get'), COMMANDS.get);
  });
});

describe('usage errors', () => {
  it('an unknown option of any command that takes options: one line naming it, then the usage line, exit 2', async (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"a":1}', 'state.md': '# s\n' });
    t.after(cleanup);
    for (const def of allCommands()) {
      // ui's module loads the dashboard's assets, which only the built bundle carries: help.test.ts.
      if (def.positionals === undefined || def.name === 'run' || def.name === 'ui') continue;
      const result = await baton([def.name, '--bogus-flag'], { cwd: dir });
      const [first, second] = result.stderr.split('\n');
      assert.equal(result.code, 2, `baton ${def.name} --bogus-flag: ${result.stderr}`);
      assert.match(first as string, /unknown option '--bogus-flag'/, def.name);
      assert.match(second as string, new RegExp(`^usage: baton ${def.name}`), def.name);
      assert.equal(result.stdout, '');
    }
  });

  it('a typo in a flag is an error, not a file name: baton lint --jsn FILE exits 2', async (t) => {
    const { dir, cleanup } = tempTree({ 'state.md': '# s\n' });
    t.after(cleanup);
    assert.equal((await baton(['lint', '--jsn', 'state.md'], { cwd: dir })).code, 2);
    assert.equal((await baton(['get', 'd.json', '--raww'], { cwd: dir })).code, 2);
  });

  it('values that look like options: negative numbers are values; --flag=VALUE takes anything', async (t) => {
    const { dir, cleanup } = tempTree({ 'd.json': '{"n":1}' });
    t.after(cleanup);
    assert.equal((await baton(['set', 'd.json', 'n', '-3', '--json'], { cwd: dir })).code, 0);
    assert.equal((await baton(['get', 'd.json', '.n'], { cwd: dir })).stdout, '-3\n');
    assert.equal((await baton(['get', 'd.json', '.missing', '--default=-x'], { cwd: dir })).stdout, '-x\n');
    assert.equal((await baton(['get', 'd.json', '.missing', '--default', '-1'], { cwd: dir })).stdout, '-1\n');
  });
});

describe('the command table', () => {
  it('every command module has a definition, and every definition a module', async () => {
    const modules = readdirSync(join(ROOT, 'src', 'cli', 'commands'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
      .sort();
    assert.deepEqual(modules, Object.keys(COMMANDS).sort());
  });
});
