import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { COMPAT_EXITS, EXIT, EXIT_BY_CODE } from '../../src/core/errors.js';
import { commandNamed, EXIT_CODES } from '../../src/cli/definitions.js';

/** docs/troubleshooting.md's "Exit codes" table: exit code -> the error codes its row names. */
function documentedTable(): Map<number, string[]> {
  const text = readFileSync(join(ROOT, 'docs/troubleshooting.md'), 'utf8');
  const section = text.slice(text.indexOf('## Exit codes'), text.indexOf('\n## ', text.indexOf('## Exit codes') + 1));
  const rows = new Map<number, string[]>();
  for (const line of section.split('\n')) {
    const cells = /^\| (\d+) \|([^|]*)\|/.exec(line);
    if (cells)
      rows.set(
        Number(cells[1]),
        [...(cells[2] as string).matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string),
      );
  }
  return rows;
}

/** The exit codes a help line lists: `0 ok, 1 refused (...), 2 usage` -> [0, 1, 2]. */
function listed(line: string): number[] {
  return [...line.matchAll(/(?:^|, |; )(\d+) /g)].map((m) => Number(m[1]));
}

describe('every exit code is documented', () => {
  it("every error code is in its exit code's row of the troubleshooting table, and the table names no other", () => {
    const table = documentedTable();
    for (const [code, exit] of Object.entries(EXIT_BY_CODE)) {
      assert.ok(table.get(exit)?.includes(code), `${code} (exit ${exit}) is missing from docs/troubleshooting.md`);
    }
    for (const [exit, codes] of table) {
      for (const code of codes)
        assert.equal(EXIT_BY_CODE[code as keyof typeof EXIT_BY_CODE], exit, `${code} in row ${exit}`);
    }
  });

  it('the table, the help line and the EXIT constants list the same exit codes', () => {
    const exits = Object.values(EXIT).sort((a, b) => a - b);
    assert.deepEqual(
      [...documentedTable().keys()].sort((a, b) => a - b),
      exits,
    );
    assert.deepEqual(listed(EXIT_CODES), exits);
  });

  it("a command that stands in for another tool lists that tool's exit codes in its help", () => {
    const faces: [string, keyof typeof COMPAT_EXITS, number[]][] = [
      ['run', 'runBus', [EXIT.unsafe]],
      ['phase', 'runBus', []],
      ['gate', 'runBus', []],
      ['task', 'taskState', [3]],
      ['goal', 'goal', [3]],
    ];
    for (const [name, face, own] of faces) {
      const expected = [EXIT.ok, EXIT.refused, ...Object.values(COMPAT_EXITS[face]), ...own];
      const help = commandNamed(name)?.exitCodes ?? '';
      assert.deepEqual(
        listed(help).sort((a, b) => a - b),
        [...new Set(expected)].sort((a, b) => a - b),
        `baton ${name}`,
      );
    }
  });
});
