/**
 * The harmless-command proof (src/harness/policy/harmless.ts), in-process: commands an attacker
 * used or could use to write a protected file without a sandbox (the classes of docs/gates.md, and every
 * shell attack of the gate corpus) must not be proved harmless; ordinary read-only work must be.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { harmlessCommand } from '../../src/harness/policy/harmless.js';
import { tempTree } from '../helpers/fixtures.js';
import { ATTACKS } from './gate-corpus.js';
import { ALLOWED, REFUSED } from './harmless-corpus.js';

const CWD = '/work/project';
const HOME = '/home/agent';
const why = (command: string) => harmlessCommand(command, CWD, HOME);

describe('harmlessCommand: refused', () => {
  it(`has at least 120 refused commands (${REFUSED.length})`, () => {
    assert.ok(REFUSED.length >= 120);
  });
  for (const [command, fragment] of REFUSED) {
    it(JSON.stringify(command).slice(0, 100), () => {
      const reason = why(command);
      assert.ok(reason, `${command} was proved harmless`);
      assert.ok(reason.includes(fragment), `${command}: "${reason}" does not name ${fragment}`);
      assert.ok(!reason.includes('\n'), 'one line');
    });
  }
});

describe('harmlessCommand: allowed', () => {
  it(`has at least 40 allowed commands (${ALLOWED.length})`, () => {
    assert.ok(ALLOWED.length >= 40);
  });
  for (const command of ALLOWED) {
    it(JSON.stringify(command).slice(0, 100), () => {
      assert.equal(why(command), undefined);
    });
  }
});

describe('harmlessCommand: the gate corpus', () => {
  it('proves none of the shell attacks harmless', () => {
    const passed = ATTACKS.filter((a) => !a.tool && why(a.command.replaceAll('@ROOT@', CWD)) === undefined);
    assert.deepEqual(
      passed.map((a) => a.command),
      [],
    );
  });
});

describe('harmlessCommand: git configuration', () => {
  const repo = (config: string, files: Record<string, string> = {}) =>
    tempTree({ 'home/.keep': '', 'repo/.git/config': config, 'repo/.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const inRepo = (dir: string, command: string) => harmlessCommand(command, join(dir, 'repo'), join(dir, 'home'));

  const risky: [string, string][] = [
    ['[core]\n\tfsmonitor = touch tests/x\n', 'core.fsmonitor'],
    ['[core]\n\tpager = sh -c "touch tests/x"\n', 'core.pager'],
    ['[pager]\n\tlog = ./evil\n', 'pager.log'],
    ['[diff]\n\texternal = ./evil\n', 'diff.external'],
    ['[diff "py"]\n\ttextconv = ./evil\n', 'diff.py.textconv'],
    ['[diff "py"]\n\tcommand = ./evil\n', 'diff.py.command'],
    ['[filter "x"]\n\tclean = ./evil %f\n', 'filter.x.clean'],
    ['[filter "x"]\n\tprocess = ./evil\n', 'filter.x.process'],
    ['[gpg]\n\tprogram = ./evil\n', 'gpg.program'],
    ['[log]\n\tshowSignature = true\n', 'log.showsignature'],
    ['[trace2]\n\teventTarget = /work/project/tests/x\n', 'trace2.eventtarget'],
    ['[CORE] FSMonitor = ./evil\n', 'core.fsmonitor'],
    ['[core]\n\tfsmonitor = "./ev\\\nil"\n', 'core.fsmonitor'],
    ['[core] pager = ./evil ; comment\n', 'core.pager'],
  ];
  for (const [config, key] of risky) {
    it(`refuses git under ${JSON.stringify(config)}`, () => {
      const { dir, cleanup } = repo(config);
      try {
        for (const command of ['git status', 'git diff', 'git log -p', 'git add src/x.py']) {
          const reason = inRepo(dir, command);
          assert.ok(reason?.includes(key), `${command}: ${reason}`);
        }
        assert.equal(inRepo(dir, 'cat .git/config'), undefined, 'only git reads its configuration');
      } finally {
        cleanup();
      }
    });
  }

  it('allows configuration that runs nothing more than plain git', () => {
    const { dir, cleanup } = repo(
      '[core]\n\tpager = less -FRX\n\tfsmonitor = false\n\teditor = vim\n[user]\n\tname = A # not ; a value\n' +
        '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n' +
        '[pager]\n\tbranch = false\n[alias]\n\tst = !touch tests/x\n',
    );
    try {
      assert.equal(inRepo(dir, 'git status && git diff && git log -3'), undefined);
    } finally {
      cleanup();
    }
  });

  it('refuses a .git file that points git at a folder other than a .git folder', () => {
    const { dir, cleanup } = tempTree({
      'home/.keep': '',
      'p/tests/HEAD': 'ref: refs/heads/main\n',
      'p/.git': 'gitdir: tests\n',
    });
    try {
      assert.match(
        harmlessCommand('git add src/x.py', join(dir, 'p'), join(dir, 'home')) ?? '',
        /points git at .*\/p\/tests, which is not a repository's \.git folder/,
      );
    } finally {
      cleanup();
    }
  });

  it('follows includes, the home configuration, worktrees and submodules', () => {
    const { dir, cleanup } = tempTree({
      'home/.gitconfig': '[include]\n\tpath = more.conf\n',
      'home/more.conf': '[diff]\n\texternal = ./evil\n',
      'main/.git/config': '',
      'main/.git/worktrees/w/commondir': '../..\n',
      'main/.git/modules/sub/config': '[core]\n\tfsmonitor = ./evil\n',
      'wt/.git': `gitdir: ../main/.git/worktrees/w\n`,
      'plain/.keep': '',
    });
    try {
      const home = join(dir, 'home');
      assert.match(harmlessCommand('git status', join(dir, 'plain'), home) ?? '', /more\.conf sets diff\.external/);
      rmSync(join(home, '.gitconfig'));
      assert.equal(harmlessCommand('git status', join(dir, 'plain'), home), undefined);
      assert.match(
        harmlessCommand('git status', join(dir, 'wt'), home) ?? '',
        /modules\/sub\/config sets core\.fsmonitor/,
      );
      assert.match(harmlessCommand('git status', join(dir, 'main'), home) ?? '', /core\.fsmonitor/);
    } finally {
      cleanup();
    }
  });

  it('reads the repository of every folder the command may cd into, and refuses one it cannot follow', () => {
    const { dir, cleanup } = tempTree({
      'home/.keep': '',
      'clean/.keep': '',
      'clean/other/.git/config': '[core]\n\tfsmonitor = ./evil\n',
    });
    try {
      const at = (command: string) => harmlessCommand(command, join(dir, 'clean'), join(dir, 'home'));
      assert.equal(at('git status'), undefined);
      assert.match(at('cd other && git status') ?? '', /core\.fsmonitor/);
      assert.match(at('(cd other; ls); git status') ?? '', /core\.fsmonitor/);
      assert.match(at('cd "$d" && git status') ?? '', /a `cd` baton cannot follow/);
      assert.match(at('cd - && git status') ?? '', /a `cd` baton cannot follow/);
      assert.equal(at('cd "$d" && ls'), undefined);
    } finally {
      cleanup();
    }
  });
});
