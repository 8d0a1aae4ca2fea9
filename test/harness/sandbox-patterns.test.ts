/**
 * The sandbox's translations of policy patterns: the tests GNU find runs after a call (-name,
 * -path, -regex) must select exactly the paths the policy's own matcher selects, checked with the
 * real find over a real tree; and the macOS Seatbelt profile generated from the same set.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compilePatterns, patternToFind, type FindTest } from '../../src/project/policy/glob.js';
import { ENEO } from '../../src/project/profiles/eneo.js';
import { seatbeltProfile } from '../../src/harness/sandbox/seatbelt.js';
import { tempTree } from '../helpers/fixtures.js';

const FILES = [
  'tests/test_a.py',
  'tests/sub/helper.py',
  'src/test_x.py',
  'src/app.py',
  'src/app_test.py',
  'web/a.test.ts',
  'web/a.ts',
  'web/__tests__/x.js',
  'web/spec.ts',
  'web/b.spec.tsx',
  'backend/src/intric/m.py',
  '.baton/meta.json',
  'deep/.baton',
  'notes/test_plan.md',
  'tests.py',
  'a[b]/c*d?.py',
];
const PATTERNS = [
  ...(ENEO.config?.pathClasses.test ?? []),
  '*backend/src/intric/*',
  're:/\\.baton(/|$)',
  're:^ROOT/src/app\\.py$',
  're:_test\\.py$',
  're:/(web|src)/[a-c]\\w*\\.ts$',
  're:^ROOT/a\\[b\\]/c\\*d\\?\\.py$',
];

function found(root: string, tests: FindTest[]): string[] {
  const expr = tests.flatMap((t, i) => [...(i ? ['-o'] : []), t.test, t.text]);
  const r = spawnSync('find', [root, '-regextype', 'posix-extended', '(', ...expr, ')', '-print'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('the sandbox scan patterns', () => {
  it('select with GNU find exactly what the policy matcher selects', () => {
    const tree = tempTree(Object.fromEntries(FILES.filter((f) => f !== 'deep/.baton').map((f) => [f, 'x'])));
    try {
      mkdirSync(join(tree.dir, 'deep', '.baton'), { recursive: true });
      const all = found(tree.dir, [{ test: '-path', text: '*' }]);
      for (const raw of PATTERNS) {
        const pattern = raw.replace('ROOT', tree.dir.replace(/[.[\]*?\\]/g, '\\$&'));
        const tests = patternToFind(pattern);
        assert.ok(tests, pattern);
        const policy = compilePatterns([pattern], {});
        assert.deepEqual(found(tree.dir, tests), all.filter(policy), `${raw} -> ${JSON.stringify(tests)}`);
      }
    } finally {
      tree.cleanup();
    }
  });

  it('refuses JavaScript syntax ERE cannot say (then the sandbox is not used for the call)', () => {
    for (const pattern of ['re:(?=a)b', 're:(a)\\1', 're:\\bword', 're:[\\]]'])
      assert.equal(patternToFind(pattern), undefined, pattern);
  });
});

describe('the macOS Seatbelt profile', () => {
  const profile = seatbeltProfile({
    rules: [
      {
        id: 'bash-green-tests',
        paths: patternToFind('*/tests/*') ?? [],
        also: [],
        unless: [],
      },
      {
        id: 'bash-red-source',
        paths: patternToFind('*backend/src/intric/*') ?? [],
        also: patternToFind('*.py') ?? [],
        unless: [...(patternToFind('*/tests/*') ?? []), ...(patternToFind('re:_test\\.py$') ?? [])],
      },
    ],
    binds: ['/home/u/.claude'],
    outside: ['/home/u/.bash_profile'],
  });

  it('allows everything but writes to the protected set', () => {
    assert.equal(
      profile,
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write* (regex "^(.*/tests/.*)$"))',
        '(deny file-write* (require-all (regex "^(.*backend/src/intric/.*)$") (regex "^(.*/.*\\\\.py)$") (require-not (require-any (regex "^(.*/tests/.*)$") (regex "^(.*/.*_test\\\\.py)$")))))',
        '(deny file-write* (subpath "/home/u/.claude"))',
        '(deny file-write* (literal "/home/u/.bash_profile"))',
      ].join('\n'),
    );
  });

  it('its regular expressions match what the rules match', () => {
    const regexes = [...profile.matchAll(/\(regex "((?:[^"\\]|\\.)*)"\)/g)].map(
      (m) => new RegExp((m[1] as string).replace(/\\(.)/g, '$1')),
    );
    const [tests, intric, py, unlessTests, unlessSuffix] = regexes;
    assert.ok(tests?.test('/p/tests/a.py') && !tests.test('/p/src/a.py'));
    const red = (path: string) =>
      intric!.test(path) && py!.test(path) && !(unlessTests!.test(path) || unlessSuffix!.test(path));
    assert.deepEqual(
      ['/p/backend/src/intric/m.py', '/p/backend/src/intric/m_test.py', '/p/backend/src/intric/m.ts'].map(red),
      [true, false, false],
    );
  });
});
