/**
 * A file a rule depends on that exists but cannot be looked at is not "no file". A link to itself
 * (ELOOP) stands in for most such paths; a folder this user may not enter (EACCES) is built too,
 * with root's capabilities to pass it dropped where the tests run as root. Each door
 * is walked around by `baton hook` / the CLI in process and through a running `baton serve`, which
 * reads the same files for its own: on the old code each was taken for absent and the rule lapsed.
 */
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton, BIN, cleanEnv, type RunResult } from '../helpers/cli.js';
import { OWNED_SCHEMA, tempTree } from '../helpers/fixtures.js';
import { serve } from './hook-client.js';
import { health } from './serve-process.js';

const TASK = '.claude/state/current-task.json';
const MIRROR = '.claude/state/phase';
const TEST_FILE = 'backend/tests/test_app.py';
const DOC_FILE = 'docs/guide.md';
const IDENTITY = '.baton/sandbox/identity.json';

/** The Write's PreToolUse payload, as Claude Code sends it. */
function writePayload(dir: string, file: string): string {
  return JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, file), content: 'x' },
    cwd: dir,
  });
}

/** Replaces `path` by a link to itself for the length of `body`, then puts the file back. */
async function looped<T>(path: string, body: () => Promise<T> | T): Promise<T> {
  renameSync(path, `${path}.aside`);
  symlinkSync(path, path);
  try {
    return await body();
  } finally {
    rmSync(path);
    renameSync(`${path}.aside`, path);
  }
}

/**
 * `argv` run as this user without the capabilities that let root past a folder's mode (root
 * ignores 000 otherwise), so a folder this user may not enter (EACCES) is built whoever runs the tests.
 */
const asUser = (argv: string[]): string[] =>
  process.getuid?.() === 0
    ? ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--', ...argv]
    : argv;

describe('a rule whose file cannot be looked at is not lifted', () => {
  it('the phase mirror or the task document a link to itself: the gated Write is denied, through the server and by baton hook', async (t) => {
    const p = tempTree({
      'baton.config.json': JSON.stringify({
        profile: 'eneo',
        pathClasses: { docs: ['*/docs/*.md'] },
        rules: [
          {
            id: 'docs-frozen',
            on: 'edit',
            when: { field: 'status', in: ['verified'] },
            paths: ['docs'],
            message: 'docs are frozen once {slug} is verified',
          },
        ],
      }),
    });
    t.after(p.cleanup);
    for (const args of [
      ['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
      ['task', 'phase-set', 'GREEN'],
      ['set', TASK, 'status', 'verified'],
    ]) {
      const made = baton(args, { cwd: p.dir });
      assert.equal(made.code, 0, `${args.join(' ')}: ${made.stderr}`);
    }
    const server = await serve(p.dir);
    t.after(() => server.stop());
    const hook = (file: string) => baton(['hook', 'PreToolUse'], { cwd: p.dir, input: writePayload(p.dir, file) });
    const both = async (file: string): Promise<[string, RunResult]> => [await server.raw(file), hook(file)];
    const denied = (answers: [string, RunResult], why: RegExp) => {
      const [served, inProcess] = answers;
      assert.match(served, /"permissionDecision":"deny"/, 'through baton serve');
      assert.match(served, why, 'through baton serve');
      assert.match(inProcess.stdout, /"permissionDecision":"deny"/, `baton hook: ${inProcess.stderr}`);
      assert.match(inProcess.stdout, why, 'baton hook');
    };

    // As written, both rules hold.
    denied(await both(TEST_FILE), /tests are frozen during GREEN/);
    denied(await both(DOC_FILE), /docs are frozen once demo is verified/);

    // The mirror a link to itself: read as no phase (FREE), the test write was allowed.
    const mirror = join(p.dir, MIRROR);
    await looped(mirror, async () => {
      denied(await both(TEST_FILE), /mirror [^"]*phase cannot be read[^"]*symbolic link loops/);
      // An ungated event is not held up by it, exit 0: UserPromptSubmit does nothing and says why;
      // SessionStart still gives the resume line, and tells the model the mirror cannot be read and the fix.
      for (const event of ['SessionStart', 'UserPromptSubmit']) {
        const payload = { session_id: 's', hook_event_name: event, prompt: 'go on', source: 'startup', cwd: p.dir };
        const served = await server.hook(event, payload);
        assert.doesNotMatch(served, /deny|block/, event);
        const r = baton(['hook', event], { cwd: p.dir, input: JSON.stringify(payload) });
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stdout, /deny|block/, event);
        if (event === 'UserPromptSubmit')
          assert.match(r.stderr, new RegExp(`${event} did nothing, allowing: mirror [^\\n]*phase cannot be read`));
        else
          for (const [via, out] of [
            ['baton serve', served],
            ['baton hook', r.stdout],
          ] as const)
            assert.match(
              out,
              /Resume: demo[^]*the task state cannot be read: mirror [^"\n]*\.claude\/state\/phase cannot be read[^"\n]*put the file itself there \(ELOOP\)/,
              via,
            );
      }
    });
    // The task document a link to itself: read as no task, the docs write was allowed.
    await looped(join(p.dir, TASK), async () =>
      denied(await both(DOC_FILE), /document [^"]*current-task.json cannot be read[^"]*ELOOP/),
    );
    // A folder in the mirror's place cannot be read either.
    renameSync(mirror, `${mirror}.aside`);
    mkdirSync(mirror);
    denied(await both(TEST_FILE), /mirror [^"]*phase cannot be read[^"]*EISDIR/);
    rmSync(mirror, { recursive: true });
    renameSync(`${mirror}.aside`, mirror);
    // Nothing at the mirror is the one absent case: no phase, the test write allowed as before.
    renameSync(mirror, `${mirror}.aside`);
    assert.doesNotMatch(await server.raw(TEST_FILE), /deny/);
    assert.doesNotMatch(hook(TEST_FILE).stdout, /deny/);
    renameSync(`${mirror}.aside`, mirror);
    denied(await both(TEST_FILE), /tests are frozen during GREEN/);
  });

  it('the wave file, a ratchet floor, a current artifact, the typecheck script or the task a link to itself: the Stop is blocked, through the server and by baton hook', async (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    t.after(p.cleanup);
    const made = baton(['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'], {
      cwd: p.dir,
    });
    assert.equal(made.code, 0, made.stderr);
    const server = await serve(p.dir);
    t.after(() => server.stop());
    // A session of its own per call: the Stop gate never blocks twice in a row for one reason.
    let session = 0;
    const stop = (via: 'serve' | 'hook'): Promise<string> | string => {
      const payload = { session_id: `s${++session}`, hook_event_name: 'Stop', stop_hook_active: false, cwd: p.dir };
      if (via === 'serve') return server.hook('Stop', payload);
      const hook = baton(['hook', 'Stop'], { cwd: p.dir, input: JSON.stringify(payload) });
      assert.equal(hook.code, 0, hook.stderr);
      return hook.stdout;
    };
    const blocked = async (why: RegExp) => {
      for (const via of ['serve', 'hook'] as const) {
        const answer = await stop(via);
        assert.match(answer, /"decision":"block"/, via);
        assert.match(answer, why, via);
      }
    };
    const allowed = async () => {
      for (const via of ['serve', 'hook'] as const) assert.doesNotMatch(await stop(via), /block/, via);
    };
    const file = (path: string, text: string) => {
      mkdirSync(join(p.dir, path, '..'), { recursive: true });
      writeFileSync(join(p.dir, path), text);
    };

    await allowed();
    file('.claude/state/wave.json', JSON.stringify({ wave: 2, expected: 3, done: 1, status: 'in-progress' }));
    await blocked(/Wave 2 is not complete/);
    // Read as no wave running, the turn ended mid-wave.
    await looped(join(p.dir, '.claude/state/wave.json'), () =>
      blocked(/wave file [^"]*wave.json cannot be read[^"]*ELOOP/),
    );
    rmSync(join(p.dir, '.claude/state/wave.json'));

    file('.claude/ratchet/coverage.json', JSON.stringify({ 'app.py': 90 }));
    file(
      '.claude/ratchet/.current/coverage.json',
      JSON.stringify({ files: { 'app.py': { summary: { percent_covered: 50 } } } }),
    );
    await blocked(/coverage regression: app.py/);
    // The floors read as none, and the current artifact as missing: both let the regression through.
    await looped(join(p.dir, '.claude/ratchet/coverage.json'), () =>
      blocked(/ratchet file [^"]*coverage.json cannot be read[^"]*ELOOP/),
    );
    await looped(join(p.dir, '.claude/ratchet/.current/coverage.json'), () =>
      blocked(/ratchet file [^"]*\.current[^"]*coverage.json cannot be read[^"]*ELOOP/),
    );
    rmSync(join(p.dir, '.claude/ratchet'), { recursive: true });
    // The typecheck preset: a script that cannot be looked at was skipped as missing; now it is run, and fails.
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: p.dir }).status, 0);
    file('backend/app.py', 'x = 1\n');
    file('backend/scripts/typecheck_changed.sh', 'echo "app.py:1: error: wrong" >&2; exit 1\n');
    await blocked(/Type checking failed[^"]*app.py:1: error: wrong/);
    await looped(join(p.dir, 'backend/scripts/typecheck_changed.sh'), () =>
      blocked(/Type checking failed[^"]*typecheck_changed.sh/),
    );
    rmSync(join(p.dir, 'backend/scripts/typecheck_changed.sh'));
    await allowed();
    // The task document itself: the gates keyed on its slug were off.
    file('.claude/state/wave.json', JSON.stringify({ wave: 2, expected: 3, done: 1, status: 'in-progress' }));
    await looped(join(p.dir, TASK), () => blocked(/document [^"]*current-task.json cannot be read[^"]*ELOOP/));
  });

  it('the sandbox identity file a link to itself: a claimed writer is refused owned fields, in process and through the server', async (t) => {
    const p = tempTree({ 'owned.json': OWNED_SCHEMA });
    t.after(p.cleanup);
    const run = (args: string[]) => baton(args, { cwd: p.dir, env: { BATON_ROOT: p.dir } });
    const init = run(['init', 'd.json', '--schema', 'owned.json', '--as', 'orchestrator', '--arg', 'phase', 'RED']);
    assert.equal(init.code, 0, init.stderr);
    const identity = join(p.dir, IDENTITY);
    mkdirSync(join(identity, '..'), { recursive: true });
    writeFileSync(identity, '{"agent": "a1", "session": "s1"}');
    const claimed = ['set', 'd.json', 'phase', 'GREEN', '--as', 'orchestrator'];
    const refused = (why: RegExp) => {
      // The document and its sidecar (treeFiles would follow the loop).
      const files = () => [readFileSync(join(p.dir, 'd.json'), 'utf8'), ...readdirSync(join(p.dir, '.baton'))];
      const before = files();
      const r = run(claimed);
      assert.notEqual(r.code, 0, 'the claim was taken');
      assert.match(r.stderr, why);
      assert.deepEqual(files(), before, 'nothing was written');
      return r.code;
    };
    assert.equal(refused(/writer orchestrator is claimed, but this command runs as agent a1/), 5);
    // Read as "outside a sandbox", the claim went unchecked and the owned field was written.
    const inProcess = await looped(identity, () =>
      refused(/the sandbox identity file [^ ]*identity.json cannot be read[^\n]*ELOOP/),
    );
    assert.equal(inProcess, 8);
    // The same command run by a server, which reads the file for itself.
    const server = await serve(p.dir, { BATON_ROOT: p.dir });
    t.after(() => server.stop());
    const ran = (await health<{ cli: { ran: number } }>(p.dir)).cli.ran;
    await looped(identity, () => refused(/the sandbox identity file [^ ]*identity.json cannot be read[^\n]*ELOOP/));
    assert.equal((await health<{ cli: { ran: number } }>(p.dir)).cli.ran, ran + 1, 'the server ran it');
    // Nothing at the path is outside a sandbox: the claim is the writer.
    rmSync(identity);
    assert.equal(run(claimed).code, 0);
  });

  it('the eneo root marker a link to itself still marks the project: its GREEN holds, through the server and by baton hook', async (t) => {
    // The config at the workspace, the state under eneo/, which the marker backend/src/intric finds.
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}', 'eneo/backend/src/intric/x.py': '' });
    t.after(p.cleanup);
    const env = { CLAUDE_PROJECT_DIR: p.dir };
    for (const args of [
      ['task', 'init', '--', 'demo', 'fast', '1', 'none', 'appends'],
      ['task', 'phase-set', 'GREEN'],
    ]) {
      const made = baton(args, { cwd: p.dir, env });
      assert.equal(made.code, 0, `${args.join(' ')}: ${made.stderr}`);
    }
    const server = await serve(p.dir, env);
    t.after(() => server.stop());
    const test = 'eneo/backend/tests/test_app.py';
    const denied = async () => {
      assert.match(await server.raw(test), /"permissionDecision":"deny".*tests are frozen during GREEN/, 'serve');
      const hook = baton(['hook', 'PreToolUse'], { cwd: p.dir, env, input: writePayload(p.dir, test) });
      assert.match(hook.stdout, /"permissionDecision":"deny".*tests are frozen during GREEN/, hook.stderr);
    };
    await denied();
    // Taken for no marker, the state was looked for in the workspace, which has no task: no phase.
    await looped(join(p.dir, 'eneo/backend/src/intric'), denied);
    await looped(join(p.dir, 'eneo/backend/src'), denied);
  });

  it('a folder this user may not enter (mode 000): the phase is not "none" and the sandbox is not offered, through the server and by baton hook', async (t) => {
    const p = tempTree({
      'baton.config.json': '{"profile": "eneo"}',
      'backend/tests/test_app.py': 'def test_a(): pass\n',
    });
    t.after(() => {
      for (const dir of ['.claude/state', 'backend']) chmodSync(join(p.dir, dir), 0o755);
      p.cleanup();
    });
    for (const args of [
      ['init', TASK, '--schema', 'eneo-task', '--arg', 'slug', 'demo', '--arg', 'lane', 'fast'],
      ['task', 'phase-set', 'GREEN'],
    ]) {
      const made = baton(args, { cwd: p.dir });
      assert.equal(made.code, 0, `${args.join(' ')}: ${made.stderr}`);
    }
    const server = await serve(p.dir, {}, { prefix: asUser([]) });
    t.after(() => server.stop());
    const bash = {
      session_id: 's',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'python3 -c "print(1)"' },
      cwd: p.dir,
    };
    const hook = (payload: string) => {
      const [command, ...args] = asUser([process.execPath, BIN, 'hook', 'PreToolUse']);
      const r = spawnSync(command as string, args, { cwd: p.dir, env: cleanEnv(), input: payload, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const both = async (payload: object): Promise<string[]> => [
      await server.hook('PreToolUse', payload),
      hook(JSON.stringify(payload)),
    ];
    const write = JSON.parse(writePayload(p.dir, TEST_FILE)) as object;
    for (const answer of await both(write)) assert.match(answer, /"permissionDecision":"deny".*tests are frozen/);
    // A program the parser cannot see into runs in the OS sandbox, the test files bound read-only.
    for (const answer of await both(bash)) assert.match(answer, /"updatedInput":\{"command":/);

    // The state folder closed: read as no phase, the test write was allowed.
    chmodSync(join(p.dir, '.claude/state'), 0o000);
    for (const answer of await both(write))
      assert.match(answer, /"permissionDecision":"deny".*phase cannot be read[^"]*EACCES/);
    chmodSync(join(p.dir, '.claude/state'), 0o755);
    // The folder holding the tests closed: the sandbox could not bind what it could not list, and
    // the command, as the same user, may open the folder again and write a test. No sandbox, then:
    // the harmless-only proof, which this call fails.
    chmodSync(join(p.dir, 'backend'), 0o000);
    for (const answer of await both(bash))
      assert.match(answer, /"permissionDecision":"deny".*backend cannot be listed[^"]*EACCES/);
    chmodSync(join(p.dir, 'backend'), 0o755);
    for (const answer of await both(bash)) assert.match(answer, /"updatedInput":\{"command":/);
  });

  it('a history folder this user may write but not list: the commit is refused, never a second revision 1, in process and through the server', async (t) => {
    const p = tempTree({});
    const history = join(p.dir, '.baton/d.json.history');
    t.after(() => {
      chmodSync(history, 0o755);
      p.cleanup();
    });
    for (const args of [
      ['init', 'd.json', '--argjson', 'n', '1'],
      ['set', 'd.json', 'n', '2'],
    ])
      assert.equal(baton(args, { cwd: p.dir }).code, 0);
    const lines = () =>
      readdirSync(history).map((name) => readFileSync(join(history, name), 'utf8').trim().split('\n').length);
    const set = (n: string) => {
      const [command, ...args] = asUser([process.execPath, BIN, 'set', 'd.json', 'n', n]);
      return spawnSync(command as string, args, { cwd: p.dir, env: cleanEnv(), encoding: 'utf8' });
    };
    const refused = () => {
      const r = set('3');
      assert.equal(r.status, 8, r.stderr);
      assert.match(r.stderr, /cannot scandir [^ ]*d\.json\.history: permission denied[^\n]*EACCES/);
      // Listed as empty, history started again: an "external" revision 1, then 2, beside the old lines.
      assert.deepEqual(lines(), [2]);
      assert.match(readFileSync(join(p.dir, 'd.json'), 'utf8'), /"n": 2/);
    };
    chmodSync(history, 0o300);
    refused();
    const server = await serve(p.dir, {}, { prefix: asUser([]) });
    t.after(() => server.stop());
    const ran = (await health<{ cli: { ran: number } }>(p.dir)).cli.ran;
    refused();
    assert.equal((await health<{ cli: { ran: number } }>(p.dir)).cli.ran, ran + 1, 'the server ran it');
    chmodSync(history, 0o755);
    assert.equal(set('3').status, 0);
    assert.deepEqual(lines(), [3]);
  });

  it('a baton.config.json that cannot be read is not "no config": a gated call is denied and a Stop blocked, through the server and by baton hook', async (t) => {
    const p = tempTree({ 'baton.config.json': '{"profile": "eneo"}' });
    const config = join(p.dir, 'baton.config.json');
    t.after(() => {
      chmodSync(config, 0o644);
      p.cleanup();
    });
    const server = await serve(p.dir, {}, { prefix: asUser([]) });
    t.after(() => server.stop());
    const ask = async (event: string, payload: object): Promise<string[]> => {
      const [command, ...args] = asUser([process.execPath, BIN, 'hook', event]);
      const r = spawnSync(command as string, args, {
        cwd: p.dir,
        env: cleanEnv(),
        input: JSON.stringify(payload),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return [await server.hook(event, payload), r.stdout];
    };
    const write = JSON.parse(writePayload(p.dir, 'src/app.py')) as object;
    const stop = { session_id: 's', hook_event_name: 'Stop', stop_hook_active: false, cwd: p.dir };
    for (const answer of await ask('PreToolUse', write)) assert.doesNotMatch(answer, /deny/);
    const refused = async (why: RegExp) => {
      for (const answer of await ask('PreToolUse', write))
        assert.match(
          answer,
          new RegExp(`"permissionDecision":"deny".*baton.config.json cannot be read[^"]*${why.source}`),
        );
      for (const answer of await ask('Stop', { ...stop, session_id: `s${Math.random()}` }))
        assert.match(answer, new RegExp(`"decision":"block".*baton.config.json cannot be read[^"]*${why.source}`));
    };
    await looped(config, () => refused(/symbolic link loops[^"]*ELOOP/));
    chmodSync(config, 0o000);
    await refused(/permission denied[^"]*EACCES/);
  });
});
