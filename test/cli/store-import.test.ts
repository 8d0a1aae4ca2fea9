/**
 * `baton store import` is a write like any other (docs/guarantees.md): it lands only JSON documents at
 * confined keys the gate does not protect now, checked by their schema and rules, with a history a
 * store could have written; the whole file is checked before anything is written; the input is
 * bounded in size and depth. The PostgreSQL side of the key checks is in test/postgres/cli.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton, eneoTaskProject } from '../helpers/cli.js';
import { tempDir, tempTree, treeFiles } from '../helpers/fixtures.js';

interface Dump {
  key: string;
  text: string;
  meta: { schema?: string };
  entries: { rev: number; hash: string; op: { kind: string }; patch: unknown[]; snapshot?: unknown }[];
}

/** An export of a small project: notes.json (3 revisions) and a pipeline run. */
function sourceExport(): { header: string; notes: Dump; run: Dump } {
  const { dir, cleanup } = tempTree();
  try {
    const run = (args: string[]) => baton(args, { cwd: dir, env: { BATON_ROOT: dir } });
    assert.equal(run(['init', 'notes.json', '--argjson', 'n', '0']).code, 0);
    assert.equal(run(['update', 'notes.json', '.n += 1']).code, 0);
    assert.equal(run(['update', 'notes.json', '.n += 1']).code, 0);
    assert.equal(run(['run', 'init', 'r1']).code, 0);
    const out = run(['store', 'export']);
    assert.equal(out.code, 0, out.stderr);
    const [header, ...lines] = out.stdout.trim().split('\n') as [string, ...string[]];
    const dumps = lines.map((line) => JSON.parse(line) as Dump);
    return {
      header,
      notes: dumps.find((d) => d.key === 'notes.json') as Dump,
      run: dumps.find((d) => d.key !== 'notes.json') as Dump,
    };
  } finally {
    cleanup();
  }
}

const source = sourceExport();
const exportOf = (...dumps: (Dump | string)[]) =>
  `${[source.header, ...dumps.map((d) => (typeof d === 'string' ? d : JSON.stringify(d)))].join('\n')}\n`;
const withKey = (key: string): Dump => ({ ...structuredClone(source.notes), key });

describe('baton store import', () => {
  it('moves documents with their history into an empty project, a configured task document included', () => {
    const from = eneoTaskProject();
    const to = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    try {
      const text = baton(['store', 'export'], { cwd: from.dir, env: from.env }).stdout;
      const env = { BATON_ROOT: to.dir };
      const r = baton(['store', 'import', '-'], { cwd: to.dir, env, input: text });
      assert.equal(r.code, 0, r.stderr);
      assert.match(baton(['task', 'get', '.slug'], { cwd: to.dir, env }).stdout, /demo/);
      const notes = baton(['store', 'import', '-'], { cwd: to.dir, env, input: exportOf(source.notes) });
      assert.equal(notes.code, 0, notes.stderr);
      assert.equal(baton(['get', 'notes.json', '.n'], { cwd: to.dir, env }).stdout, '2\n');
    } finally {
      from.cleanup();
      to.cleanup();
    }
  });

  it('refuses keys outside the project, in a sidecar, through a symlink, on baton state or a host settings file, and on what the gate protects now: nothing is written', () => {
    const p = eneoTaskProject();
    const outside = tempDir();
    try {
      const env = p.env;
      assert.equal(baton(['task', 'phase-set', 'GREEN'], { cwd: p.dir, env }).code, 0);
      mkdirSync(join(p.dir, 'tests'));
      symlinkSync(outside, join(p.dir, 'out'));
      symlinkSync('.claude/state/.baton', join(p.dir, 'meta'));
      const before = treeFiles(p.dir);
      for (const [key, code, pattern] of [
        ['../../x.json', 4, /escapes the project/],
        ['/etc/passwd', 4, /not a relative path/],
        ['.baton/x.json', 4, /\.baton\/ folder/],
        ['.claude/state/.baton/current-task.json.meta.json', 4, /\.baton\/ folder/],
        ['meta/x.json', 4, /\.baton\/ folder/],
        ['out/x.json', 4, /through a symlink/],
        ['.claude/settings.local.json', 5, /baton state or its rules/],
        ['baton.config.json', 5, /baton state or its rules/],
        ['.claude/state/phase', 5, /protect-phase-mirror/],
        ['tests/test_new.py', 5, /rule 'gate-green'/],
        ['.env', 5, /rule 'protect-env'/],
      ] as const) {
        // A good line first: a refused line later must leave it unwritten too.
        const r = baton(['store', 'import', '-'], {
          cwd: p.dir,
          env,
          input: exportOf(withKey('good.json'), withKey(key)),
        });
        assert.equal(r.code, code, `${key}: ${r.stderr}`);
        assert.match(r.stderr, pattern, key);
        assert.match(r.stderr, /^baton store: line 3 of the export: .*nothing was imported/);
        assert.equal(r.stderr.trim().split('\n').length, 1);
      }
      assert.deepEqual(treeFiles(p.dir), before);
      assert.deepEqual(treeFiles(outside), {});
    } finally {
      p.cleanup();
    }
  });

  it('refuses a forged history, a document its schema or sealed fields refuse, and a line that is no document: nothing is written', () => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    try {
      const env = { BATON_ROOT: dir };
      const forged = (change: (d: Dump) => void): Dump => {
        const d = withKey('forged.json');
        change(d);
        return d;
      };
      const before = treeFiles(dir);
      for (const [what, line, code, pattern] of [
        [
          'text changed, hashes not',
          forged((d) => (d.text = '{\n  "n": 99\n}\n')),
          3,
          /hash is not that of the document's text/,
        ],
        [
          'a middle revision changed',
          forged((d) => (d.entries[1]!.patch = [{ op: 'replace', path: '/n', value: 7 }])),
          3,
          /revision 2 whose hash does not match/,
        ],
        ['revisions out of order', forged((d) => (d.entries[2]!.rev = 9)), 2, /consecutive entries/],
        ['no full copy first', forged((d) => d.entries.shift()), 3, /starts at revision 2 with no full copy/],
        ['a run with its sealed phases', source.run, 5, /sealed field .* set/],
        [
          'a schema outside the project',
          forged((d) => (d.meta.schema = '/tmp/evil.schema.json')),
          4,
          /outside the project/,
        ],
        [
          'a document its schema refuses',
          forged((d) => (d.meta.schema = 'eneo-task')),
          3,
          /does not match its schema eneo-task/,
        ],
        ['not a document', '{"key": "x.json"}', 2, /not a document with key, text, meta/],
        ['the same key twice', JSON.stringify(withKey('notes.json')), 2, /notes\.json appears twice/],
      ] as const) {
        const r = baton(['store', 'import', '-'], { cwd: dir, env, input: exportOf(source.notes, line) });
        assert.equal(r.code, code, `${what}: ${r.stderr}`);
        assert.match(r.stderr, pattern, what);
        assert.match(r.stderr, /nothing was imported/, what);
      }
      assert.deepEqual(treeFiles(dir), before);
    } finally {
      cleanup();
    }
  });

  it('bounds its input: /dev/zero and a 5,000-deep value end with exit 4 naming the limit, not a crash', () => {
    const { dir, cleanup } = tempTree();
    try {
      const env = { BATON_ROOT: dir };
      const zero = baton(['store', 'import', '/dev/zero'], { cwd: dir, env });
      assert.equal(zero.code, 4, zero.stderr);
      assert.match(zero.stderr, /the export \/dev\/zero is larger than 128 MiB, the most baton reads of it/);
      // Built as text: a 5,000-deep value overflows this process's own JSON.stringify.
      const deep = JSON.stringify(withKey('deep.json')).replace(
        '"snapshot":{',
        `"snapshot":{"deep":${'['.repeat(5000)}${']'.repeat(5000)},`,
      );
      const r = baton(['store', 'import', '-'], { cwd: dir, env, input: exportOf(deep) });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /line 2 of the export is nested deeper than 260 levels \(the depth limit/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      writeFileSync(join(dir, 'deep.jsonl'), exportOf(deep));
      assert.equal(baton(['store', 'import', 'deep.jsonl'], { cwd: dir, env }).code, 4);
      assert.deepEqual(Object.keys(treeFiles(dir)), ['deep.jsonl']);
    } finally {
      cleanup();
    }
  });
});
