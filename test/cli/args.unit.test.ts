/**
 * Every command's arguments are parsed from its definition (src/cli/definitions.ts), and its
 * flags are typed from it: a value option is a string, a `repeat` option the list of its values,
 * a switch `true`. The helpers' loose grammar (`task`, `hook`, the transcript reader) comes from
 * the same definitions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs as nodeParseArgs } from 'node:util';
import { parseArgs, parseCommand, parseLoose } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/definitions.js';

describe('parseCommand', () => {
  it('collects a repeat option in order, in both spellings, beside the other options', () => {
    const { positionals, flags } = parseCommand(COMMANDS.phase, [
      'done',
      'r1',
      '1-plan',
      '--evidence',
      'a.md',
      '--output=k=v',
      '--evidence=-b.md',
      '--json',
      '--agent',
      'planner',
    ]);
    assert.deepEqual(positionals, ['done', 'r1', '1-plan']);
    assert.deepEqual(flags.evidence, ['a.md', '-b.md']);
    assert.deepEqual(flags.output, ['k=v']);
    assert.equal(flags['work-item'], undefined);
    assert.equal(flags.json, true);
    assert.equal(flags.agent, 'planner');
  });

  it('a repeat option without its value, or an unknown option, is a usage error naming it and the usage', () => {
    assert.throws(
      () => parseCommand(COMMANDS.phase, ['done', 'r1', '1-plan', '--evidence']),
      (error: Error & { code?: string }) =>
        error.code === 'usage' && /^--evidence needs a value\nusage: baton phase /.test(error.message),
    );
    assert.throws(
      () => parseCommand(COMMANDS.get, ['f.json', '--bogus']),
      (error: Error & { code?: string }) => error.code === 'usage' && /^unknown option '--bogus'\n/.test(error.message),
    );
  });

  it('types the flags from the definition', () => {
    const { flags } = parseCommand(COMMANDS.init, ['f.json', '--schema', 'eneo-task', '--force']);
    const schema: string | undefined = flags.schema;
    const force: true | undefined = flags.force;
    assert.deepEqual([schema, force], ['eneo-task', true]);
    // @ts-expect-error: init declares no --limit, so reading it does not compile
    assert.equal(flags.limit, undefined);
    const work = parseCommand(COMMANDS.work, ['add', 'x', '--title', 'T', '--after', 'a', '--after', 'b']).flags;
    const after: string[] | undefined = work.after;
    assert.deepEqual(after, ['a', 'b']);
  });

  it("a command line with no option word before `--` parses as node:util's parseArgs parses it (the fast path)", () => {
    const spec = { booleans: { raw: ['-r'] }, strings: ['default'], positionals: [0, Infinity] as const, usage: 'u' };
    const lines = [
      [],
      ['f.json'],
      ['f.json', '.counter += 1'],
      ['f.json', '--', '--raw', '-x'],
      ['--', 'f.json'],
      ['f.json', '.', '--', '--', 'x'],
      ['f.json', '-1'],
      ['f.json', '-'],
      ['f.json', 'a b', '--raw', '-r', '--default=x'],
    ];
    for (const args of lines) {
      const theirs = nodeParseArgs({
        // args.ts passes a negative number to parseArgs behind a NUL, so it is not read as an option.
        args: args.map((a) => (/^-\d/.test(a) ? `\0${a}` : a)),
        options: { raw: { type: 'boolean', short: 'r' }, default: { type: 'string' } },
        strict: true,
        allowPositionals: true,
      });
      const ours = parseArgs(args, spec);
      const positionals = theirs.positionals.map((p) => p.replace(/^\0/, ''));
      assert.deepEqual([ours.positionals, { ...ours.flags }], [positionals, { ...theirs.values }], args.join(' '));
    }
  });
});

describe('parseLoose', () => {
  it("takes an option's value whatever it starts with, keeps unknown words as positionals, all after -- too", () => {
    const { positionals, flags } = parseLoose(COMMANDS.task, [
      'get',
      '--default',
      '-',
      '--unknown',
      '--',
      '--if-exists',
      '.x',
    ]);
    assert.deepEqual(positionals, ['get', '--unknown', '--if-exists', '.x']);
    assert.equal(flags.default, '-');
    assert.equal(flags['if-exists'], undefined);
  });

  it('a value option with no word after it is a positional, as the helpers read it', () => {
    const { positionals, flags } = parseLoose(COMMANDS.hook, ['PreToolUse', '--host']);
    assert.deepEqual(positionals, ['PreToolUse', '--host']);
    assert.equal(flags.host, undefined);
    assert.equal(parseLoose(COMMANDS.hook, ['--profile', 'eneo', 'Stop']).flags.profile, 'eneo');
  });
});
