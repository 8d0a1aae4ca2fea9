/**
 * The OS sandbox of protected phases (docs/gates.md#the-os-sandbox), for real: `baton hook
 * PreToolUse` answers a Bash call with its rewrite, and the rewritten command runs in bash as
 * Claude Code runs it (`eval`, then `pwd -P`), with the real bubblewrap. Every attack is hidden
 * from the parser (`eval` of base64-decoded text), so what stops it is the sandbox.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baton, CLI } from '../helpers/cli.js';
import { tempDir, tempTree } from '../helpers/fixtures.js';

const ORIGINAL = 'def test_a():\n    assert add(1, 2) == 3\n';

function project(phase: string) {
  const tree = tempTree({
    'baton.config.json': JSON.stringify({ profile: 'eneo' }),
    '.claude/state/phase': `${phase}\n`,
    'tests/test_a.py': ORIGINAL,
    'src/calc.py': 'def add(a, b):\n    return 0\n',
    'src/sub/.keep': '',
  });
  const home = tempDir('baton-sandbox-home-');
  const env = (extra: Record<string, string> = {}) => ({
    CLAUDE_PROJECT_DIR: tree.dir,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    ...extra,
  });
  mkdirSync(join(home, 'tmp'));
  return {
    dir: tree.dir,
    hook(command: string, extra: Record<string, string> = {}, payload: Record<string, unknown> = {}) {
      const input = JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'session-1',
        cwd: tree.dir,
        tool_name: 'Bash',
        tool_input: { command, description: 'a call' },
        ...payload,
      });
      const r = baton(['hook', 'PreToolUse', '--profile', 'eneo'], { cwd: tree.dir, env: env(extra), input });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as { hookSpecificOutput?: Record<string, unknown> });
    },
    /** The hook's rewrite of `command`, run as Claude Code runs a Bash command. */
    run(command: string, cwd = tree.dir, prelude = '') {
      const out = this.hook(command).hookSpecificOutput;
      assert.equal(out?.permissionDecision, undefined, 'a rewrite never decides: the host still asks');
      const rewritten = (out?.updatedInput as { command?: string } | undefined)?.command;
      assert.ok(rewritten, `no rewrite for ${command}: ${JSON.stringify(out)}`);
      const cwdFile = join(home, 'cwd');
      const r = spawnSync(
        'bash',
        ['-c', `${prelude}\neval "$1" </dev/null; s=$?; pwd -P >"$2"; exit $s`, 'bash', rewritten, cwdFile],
        {
          cwd,
          env: { PATH: process.env.PATH, HOME: home },
          encoding: 'utf8',
        },
      );
      return { code: r.status, stdout: r.stdout, stderr: r.stderr, cwd: readFileSync(cwdFile, 'utf8').trim() };
    },
    read: (path: string) => readFileSync(join(tree.dir, path), 'utf8'),
    exists: (path: string) => existsSync(join(tree.dir, path)),
    quarantined(): string[] {
      const base = join(tree.dir, '.baton', 'quarantine');
      if (!existsSync(base)) return [];
      return readdirSync(base, { recursive: true, withFileTypes: true })
        .filter((e) => !e.isDirectory())
        .map((e) =>
          join(e.parentPath, e.name)
            .slice(base.length + 1)
            .replace(/^[^/]+\//, ''),
        );
    },
    cleanup() {
      tree.cleanup();
      spawnSync('rm', ['-rf', home]);
    },
  };
}

/** The command hidden from the parser: it cannot tell what `eval` of decoded text runs, nor which files it names. */
/** Hidden the same way, but the files it names stay readable (the fallback's strict mode checks them). */
const named = (command: string) => `eval "$(printf '%s' '${command.replaceAll("'", "'\\''")}')"`;
const hidden = (command: string) => `eval "$(echo ${Buffer.from(command).toString('base64')} | base64 -d)"`;

// These tests need the real bubblewrap: a machine without it fails here, naming the fix, rather
// than skipping what the sandbox promises.
describe('the machine', () => {
  it('has bubblewrap (apt-get install bubblewrap; .ci/run installs it)', () => {
    assert.equal(spawnSync('bwrap', ['--version']).status, 0, 'bwrap is not on PATH: apt-get install bubblewrap');
  });
});

describe('the OS sandbox: the hook', () => {
  let p: ReturnType<typeof project>;
  before(() => (p = project('GREEN')));
  after(() => p.cleanup());

  it('in GREEN rewrites a Bash call the parser cannot resolve, keeping the other inputs and deciding nothing', () => {
    const out = p.hook(hidden('echo x > tests/test_a.py')).hookSpecificOutput;
    assert.equal(out?.hookEventName, 'PreToolUse');
    assert.equal(out?.permissionDecision, undefined);
    const input = out?.updatedInput as { command: string; description: string };
    assert.equal(input.description, 'a call');
    assert.match(input.command, /sandbox\/run\.sh' '[^']*\/\.baton\/sandbox\/spec-[0-9a-f]+'/);
    // The spec is under .baton/, which the sandbox holds read-only, with the identity placeholder.
    assert.equal(p.read('.baton/sandbox/identity.json'), '');
  });

  it('still denies a write it resolves to a protected path, with the rule message', () => {
    const out = p.hook('echo x > tests/test_a.py').hookSpecificOutput;
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(
      String(out?.permissionDecisionReason),
      /bash modification of a test file during GREEN[\s\S]*bash-green-tests/,
    );
  });

  it('rewrites ordinary commands too: every shell call of the phase runs sandboxed', () => {
    assert.ok((p.hook('ls src').hookSpecificOutput?.updatedInput as { command?: string }).command);
  });

  it('with BATON_SANDBOX=off falls back to the parser: the unresolved write is denied', () => {
    const out = p.hook(named('echo x > tests/test_a.py'), { BATON_SANDBOX: 'off' }).hookSpecificOutput;
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(String(out?.permissionDecisionReason), /cannot tell what this command writes/);
  });

  it('for a host that cannot rewrite input (Cursor) falls back to the parser', () => {
    const r = baton(['hook', 'preToolUse', '--profile', 'eneo', '--host', 'cursor'], {
      cwd: p.dir,
      env: { CLAUDE_PROJECT_DIR: p.dir },
      input: JSON.stringify({
        tool_name: 'Shell',
        cwd: p.dir,
        workspace_roots: [p.dir],
        tool_input: { command: named('echo x > tests/test_a.py') },
      }),
    });
    assert.match(r.stdout, /"permission":"deny"/, r.stderr);
    assert.doesNotMatch(r.stdout, /sandbox\/run\.sh/);
  });

  it('Codex and Gemini CLI take the command back rewritten, each in its own shape', () => {
    const hook = (host: string, event: string, payload: object) =>
      JSON.parse(
        baton(['hook', event, '--profile', 'eneo', '--host', host], {
          cwd: p.dir,
          input: JSON.stringify({ cwd: p.dir, ...payload }),
        }).stdout,
      );
    const codex = hook('codex', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'sh write.sh' } });
    assert.equal(codex.hookSpecificOutput.permissionDecision, 'allow');
    assert.match(codex.hookSpecificOutput.updatedInput.command, /sandbox\/run\.sh/);
    // Run as Codex runs it (bash -lc): where bubblewrap starts, in baton's sandbox; inside a sandbox
    // that forbids a new one (Codex's own read-only or workspace-write), only a command proved harmless.
    writeFileSync(join(p.dir, 'write.sh'), 'echo x >> tests/test_a.py\n');
    const codexRun = (command: string, hostSandbox: boolean) => {
      const rewritten = hook('codex', 'PreToolUse', { tool_name: 'Bash', tool_input: { command } }).hookSpecificOutput
        .updatedInput.command as string;
      const argv = ['bash', '-lc', rewritten];
      const [program, ...args] = hostSandbox
        ? ['bwrap', '--dev-bind', '/', '/', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL', '--', ...argv]
        : argv;
      return spawnSync(program!, args, { cwd: p.dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    };
    const free = codexRun('sh write.sh', false);
    assert.match(free.stderr, /Read-only file system/);
    const nested = codexRun('sh write.sh', true);
    assert.equal(nested.status, 126, nested.stderr);
    assert.match(nested.stderr, /inside its own sandbox[\s\S]*danger-full-access/);
    assert.equal(p.read('tests/test_a.py'), ORIGINAL);
    const harmless = codexRun('ls src', true);
    assert.equal(harmless.status, 0, harmless.stderr);
    assert.match(harmless.stdout, /calc\.py/);
    const gemini = hook('gemini', 'BeforeTool', {
      tool_name: 'run_shell_command',
      tool_input: { command: 'sh write.sh' },
    });
    assert.match(gemini.hookSpecificOutput.tool_input.command, /sandbox\/run\.sh/);
  });
});

describe('the OS sandbox outside protected phases', () => {
  it('in FREE nothing is rewritten and nothing is written under .baton/', () => {
    const p = project('FREE');
    try {
      assert.deepEqual(p.hook('echo ok > src/calc.py'), {});
      assert.deepEqual(p.hook(hidden('echo ok > src/calc.py')), {});
      assert.equal(p.exists('.baton'), false);
    } finally {
      p.cleanup();
    }
  });
});

describe('the OS sandbox: rewritten commands run for real', () => {
  let p: ReturnType<typeof project>;
  before(() => (p = project('GREEN')));
  after(() => p.cleanup());

  const attacks: [string, string][] = [
    ['overwrite a test', 'echo hacked > tests/test_a.py'],
    ['append through sed -i', "sed -i 's/3/4/' tests/test_a.py"],
    ['a new file in tests/', 'echo x > tests/test_new.py'],
    ['rename over a test', 'echo x > src/t.py && mv -f src/t.py tests/test_a.py'],
    ['hard link, then write through it', 'ln tests/test_a.py src/h.py && echo hacked >> src/h.py'],
    ['chmod', 'chmod 000 tests/test_a.py'],
    ['rm -rf tests', 'rm -rf tests'],
    ['move tests away', 'mv tests gone'],
    ['unmount the bind', 'umount tests; echo hacked > tests/test_a.py'],
    ['a nested namespace', 'unshare -rm sh -c "umount tests; echo hacked > tests/test_a.py"'],
    ['the phase mirror', 'echo FREE > .claude/state/phase'],
    ['forge the identity', 'echo "{}" > .baton/sandbox/identity.json'],
  ];
  for (const [what, attack] of attacks) {
    it(`leaves the tests as they were: ${what}`, () => {
      const r = p.run(hidden(attack));
      assert.notEqual(r.code, 0, r.stderr);
      assert.equal(p.read('tests/test_a.py'), ORIGINAL);
      assert.equal(statSync(join(p.dir, 'tests/test_a.py')).mode & 0o777, 0o644);
      assert.deepEqual(readdirSync(join(p.dir, 'tests')), ['test_a.py']);
      assert.equal(p.read('.claude/state/phase'), 'GREEN\n');
      assert.equal(p.read('.baton/sandbox/identity.json'), '');
    });
  }

  it('a hard link to a test made before the phase is held read-only too: a write through it fails', () => {
    const q = project('REFACTOR');
    try {
      spawnSync('ln', [join(q.dir, 'tests/test_a.py'), join(q.dir, 'src/alias.py')]);
      writeFileSync(join(q.dir, '.claude/state/phase'), 'GREEN\n');
      const r = q.run(hidden('echo hacked >> src/alias.py'));
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /Read-only file system/);
      assert.equal(q.read('tests/test_a.py'), ORIGINAL);
    } finally {
      q.cleanup();
    }
  });

  it('a hard link to a test outside the project leaves the call unsandboxable: only a harmless command runs', () => {
    const q = project('REFACTOR');
    const outside = tempDir('baton-sandbox-link-');
    try {
      spawnSync('ln', [join(q.dir, 'tests/test_a.py'), join(outside, 'alias.py')]);
      writeFileSync(join(q.dir, '.claude/state/phase'), 'GREEN\n');
      const out = q.hook(`echo hacked >> ${join(outside, 'alias.py')}`).hookSpecificOutput;
      assert.equal(out?.permissionDecision, 'deny');
      assert.match(String(out?.permissionDecisionReason), /hard links/);
      assert.equal(q.read('tests/test_a.py'), ORIGINAL);
      // A command proved harmless still runs, as without a sandbox.
      assert.equal(q.hook('cat tests/test_a.py').hookSpecificOutput?.permissionDecision, undefined);
    } finally {
      q.cleanup();
      spawnSync('rm', ['-rf', outside]);
    }
  });

  const created: [string, string, string[]][] = [
    ['a new src/test_x.py', 'echo x > src/test_x.py', ['src/test_x.py']],
    [
      'a folder renamed to tests',
      'mkdir -p pkg/foo && echo x > pkg/foo/y.py && mv pkg/foo pkg/tests',
      ['pkg/tests/y.py'],
    ],
    ['a file linked in under a test name', 'echo x > src/plain.py && ln src/plain.py src/test_l.py', ['src/test_l.py']],
    [
      'a folder closed to the scan',
      'mkdir -p src/hide && echo x > src/hide/test_h.py && chmod 000 src/hide',
      ['src/hide/test_h.py'],
    ],
    [
      'settings that would turn the hooks off',
      'mkdir -p .claude && echo "{}" > .claude/settings.local.json',
      ['.claude/settings.local.json'],
    ],
  ];
  for (const [what, attack, paths] of created) {
    it(`moves aside what appears under a protected name: ${what}`, () => {
      const r = p.run(hidden(attack));
      assert.equal(r.code, 1, 'a command that exited 0 fails when something was moved aside');
      for (const path of paths) {
        assert.equal(p.exists(path), false, path);
        assert.ok(p.quarantined().includes(path), `${path} in ${p.quarantined().join(', ')}`);
        assert.match(r.stderr, new RegExp(`baton: moved ${path.replace(/[.]/g, '\\.')} to \\.baton/quarantine/`));
      }
    });
  }

  it('ends background processes with the call, so nothing writes after the scan', () => {
    const r = p.run(hidden('(sleep 1; echo x > src/test_bg.py) & echo started'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'started\n');
    spawnSync('sleep', ['1.5']);
    assert.equal(p.exists('src/test_bg.py'), false);
  });

  it('lets ordinary work through: src writes, output, exit codes, cd persisting, the shell functions of the host', () => {
    const write = p.run(
      hidden('echo "def add(a, b): return a + b" > src/calc.py && cd src/sub && echo here: $PWD && echo err >&2'),
    );
    assert.deepEqual([write.code, write.stdout, write.stderr], [0, `here: ${join(p.dir, 'src/sub')}\n`, 'err\n']);
    assert.equal(write.cwd, join(p.dir, 'src/sub'));
    assert.match(p.read('src/calc.py'), /return a \+ b/);
    const failing = p.run('cd src; grep -q nothing calc.py');
    assert.deepEqual([failing.code, failing.cwd], [1, join(p.dir, 'src')]);
    assert.equal(p.run('exit 7').code, 7);
    const fn = p.run('greet world', p.dir, 'greet() { echo "hello $1"; }; shopt -s expand_aliases; alias hi="echo hi"');
    assert.equal(fn.stdout, 'hello world\n');
    assert.equal(p.run('hi there', p.dir, 'shopt -s expand_aliases; alias hi="echo hi"').stdout, 'hi there\n');
    assert.equal(p.run('cat tests/test_a.py').stdout, ORIGINAL);
  });

  it('binds the caller identity read-only at .baton/sandbox/identity.json', () => {
    const out = p.hook('cat .baton/sandbox/identity.json', {}, { agent_id: 'agent-7' }).hookSpecificOutput;
    const rewritten = (out?.updatedInput as { command: string }).command;
    const r = spawnSync('bash', ['-c', rewritten], { cwd: p.dir, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(r.stdout), { agent: 'agent-7', session: 'session-1', host: 'claude' });
    assert.equal(JSON.parse(p.run('cat .baton/sandbox/identity.json').stdout).agent, 'main');
  });

  it('a forged spec is refused: the spec is read-only inside and a missing one fails closed', () => {
    const out = p.hook('echo hi').hookSpecificOutput;
    const rewritten = (out?.updatedInput as { command: string }).command.replace(/spec-[0-9a-f]+/, 'spec-missing');
    const r = spawnSync('bash', ['-c', rewritten], { cwd: p.dir, encoding: 'utf8' });
    assert.equal(r.status, 126);
    assert.match(r.stderr, /no sandbox spec/);
    writeFileSync(join(p.dir, 'src', 'x'), '');
  });

  it('a spec planted at the name the hook uses (while nothing held .baton/) is replaced, never trusted', () => {
    const write = hidden('echo changed > tests/test_a.py');
    const out = p.hook(write).hookSpecificOutput;
    const spec = /'([^']*\/\.baton\/sandbox\/spec-[0-9a-f]+)'/.exec(
      (out?.updatedInput as { command: string }).command,
    )?.[1];
    assert.ok(spec, 'the rewrite names its spec');
    // The same header, and no record: nothing bound read-only, nothing to scan.
    const header = readFileSync(spec, 'utf8').split('\0').slice(0, 3);
    writeFileSync(spec, `${header.join('\0')}\0`);
    const r = p.run(write);
    assert.notEqual(r.code, 0, 'the write must fail inside the sandbox');
    assert.equal(p.read('tests/test_a.py'), ORIGINAL);
  });
});

const NOBODY =
  process.getuid?.() === 0 &&
  spawnSync('setpriv', [
    '--reuid',
    '65534',
    '--regid',
    '65534',
    '--clear-groups',
    'bwrap',
    '--dev-bind',
    '/',
    '/',
    '--unshare-pid',
    '--proc',
    '/proc',
    '--',
    'true',
  ]).status === 0;

describe(
  'the OS sandbox as an ordinary user',
  { skip: !NOBODY && 'needs root to switch to uid 65534, and unprivileged user namespaces' },
  () => {
    it("cannot reach the host's mount namespace through /proc/<pid>/root of its own processes", () => {
      const p = project('GREEN');
      try {
        spawnSync('chmod', ['-R', 'a+rwX', p.dir]);
        spawnSync('chmod', ['a+rx', join(p.dir, '..')]);
        const attack = hidden(`for d in /proc/[0-9]*/root${p.dir}; do echo hacked > "$d/tests/test_a.py"; done; true`);
        const rewritten = (p.hook(attack).hookSpecificOutput?.updatedInput as { command: string }).command;
        spawnSync('chmod', ['-R', 'a+rwX', join(p.dir, '.baton')]);
        // A process of the same user outside the sandbox, whose /proc/<pid>/root is the host's view.
        const r = spawnSync(
          'setpriv',
          [
            '--reuid',
            '65534',
            '--regid',
            '65534',
            '--clear-groups',
            'bash',
            '-c',
            'sleep 5 & eval "$1"; s=$?; kill %1; exit $s',
            'bash',
            rewritten,
          ],
          { cwd: p.dir, env: { PATH: process.env.PATH, HOME: '/nonexistent' }, encoding: 'utf8' },
        );
        assert.match(r.stderr, /Read-only file system/);
        assert.equal(p.read('tests/test_a.py'), ORIGINAL);
      } finally {
        p.cleanup();
      }
    });
  },
);

/** A task in GREEN in the project at `dir`, made by baton's own commands. */
function startGreenTask(dir: string): void {
  const env = { CLAUDE_PROJECT_DIR: dir };
  const init = baton(['task', 'init', '--', 'demo', 'fast', '1', 'none', 'none'], { cwd: dir, env });
  assert.equal(init.code, 0, init.stderr);
  const phase = baton(['task', 'phase-set', 'GREEN'], { cwd: dir, env });
  assert.equal(phase.code, 0, phase.stderr);
}

describe('baton itself in a protected phase', () => {
  it('a plain call of baton runs unwrapped through the installed CLI, so it can change the phase; anything more is sandboxed', () => {
    const p = project('GREEN');
    try {
      startGreenTask(p.dir);
      const direct = (p.hook('baton task phase-set RED').hookSpecificOutput?.updatedInput as { command: string })
        .command;
      assert.match(direct, /^'[^']*node[^']*' '[^']*\/dist\/cli\.js' task phase-set RED$/);
      for (const command of [
        'baton task phase-set RED > out.txt',
        'baton store import x.jsonl',
        'baton hook Stop',
        'baton task update "$(cat x)"',
        'PATH=/tmp baton task phase-set RED',
      ])
        assert.match(
          (p.hook(command).hookSpecificOutput?.updatedInput as { command: string }).command,
          /sandbox\/run\.sh/,
          command,
        );
      const r = spawnSync('bash', ['-c', direct], {
        cwd: p.dir,
        env: { PATH: process.env.PATH, CLAUDE_PROJECT_DIR: p.dir },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(p.read('.claude/state/phase'), 'RED\n');
    } finally {
      p.cleanup();
    }
  });
});

describe('baton itself in a protected phase, its jq in double quotes', () => {
  it('a double-quoted argument whose only escapes are of a quote or a backslash is literal: the update runs unwrapped and writes the state', () => {
    const p = project('GREEN');
    try {
      startGreenTask(p.dir);
      const r = p.run(String.raw`baton task update -- ".status = \"verified\""`);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /EROFS|read-only/);
      const task = JSON.parse(p.read('.claude/state/current-task.json')) as { status?: string };
      assert.equal(task.status, 'verified');
      // Whatever else a double quote may hide stays sandboxed: an expansion behind an escaped
      // quote, an escaped `$`, a backquote, a command after a quote closed by `\\`.
      for (const command of [
        String.raw`baton task update -- "\"$(touch tests/x)\""`,
        String.raw`baton task update -- "\$(touch tests/x)"`,
        'baton task update -- "\\`touch tests/x\\`"',
        String.raw`baton task update -- "a\\" ; touch tests/x "\\"`,
        String.raw`baton task update -- "a\\"; touch tests/x`,
      ]) {
        // Denied where the parser sees the write, else sandboxed: never the unwrapped call.
        const out = p.hook(command).hookSpecificOutput;
        const rewritten = (out?.updatedInput as { command?: string } | undefined)?.command;
        assert.ok(out?.permissionDecision === 'deny' || /sandbox\/run\.sh/.test(rewritten ?? ''), command);
      }
      assert.equal(p.exists('tests/x'), false);
    } finally {
      p.cleanup();
    }
  });
});

describe('baton itself inside the phase sandbox', () => {
  it('a write of its state fails with one line naming the sandbox and the fix, the state unchanged', () => {
    const p = project('GREEN');
    try {
      startGreenTask(p.dir);
      const before = p.read('.claude/state/current-task.json');
      // The host's shell functions reach the sandbox: this `baton` is the built CLI.
      const prelude = `baton() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }`;
      const r = p.run(String.raw`baton task update -- "$(echo .status) = \"verified\""`, p.dir, prelude);
      assert.equal(r.code, 1, 'baton task exits 1 on any refusal, as the Eneo helpers it stands in for');
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0] as string, /read-only inside the phase sandbox; run the baton command on its own/);
      assert.doesNotMatch(r.stderr, /remount/);
      assert.equal(p.read('.claude/state/current-task.json'), before);
    } finally {
      p.cleanup();
    }
  });
});

describe('baton doctor names the sandbox mode', () => {
  it('bubblewrap where it works, none (a warning naming the fix) with BATON_SANDBOX=off', () => {
    const p = project('GREEN');
    try {
      const on = baton(['doctor'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir } });
      assert.match(on.stdout, /^ok {4}shell sandbox: bubblewrap \(\/\S*bwrap\)/m);
      const off = baton(['doctor'], { cwd: p.dir, env: { CLAUDE_PROJECT_DIR: p.dir, BATON_SANDBOX: 'off' } });
      assert.match(
        off.stdout,
        /^warn {2}shell sandbox: none -> strict parser fallback \(BATON_SANDBOX=off\) +unset BATON_SANDBOX/m,
      );
    } finally {
      p.cleanup();
    }
  });
});
