/**
 * baton is a command every agent may run, so none of its own write paths may write what the gate
 * protects (docs/guarantees.md): a schema's mirror files, a sidecar taken for a document, the config
 * and its schemas, the doctor's repairs. Each door is walked around from the faces an agent has
 * (CLI, library, hook), each refusal leaves the tree as it was, and each ordinary use still works.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton, BIN, cleanEnv, eneoTaskProject, ROOT } from '../helpers/cli.js';
import { OWNED_SCHEMA, tempDir, tempTree, treeFiles } from '../helpers/fixtures.js';
import { decision } from '../harness/helpers.js';

const TASK = '.claude/state/current-task.json';
const META = '.claude/state/.baton/current-task.json.meta.json';

function mirrorSchema(file: string): string {
  return JSON.stringify({
    type: 'object',
    'x-baton': { mirrors: [{ field: 'x', file, empty: 'pwned' }] },
  });
}

/** Runs `body` (an async function of `lib`, the built library) in a separate Node process; prints the error code or ok. */
function library(dir: string, body: string): string {
  const script = `import * as lib from ${JSON.stringify(join(ROOT, 'dist', 'index.mjs'))};
try { await (${body})(lib); console.log('ok'); } catch (error) { console.log(error.code ?? error.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: cleanEnv({ BATON_ROOT: dir }),
    encoding: 'utf8',
  });
  return r.stdout.trim() || r.stderr;
}

/** The eneo project of the other write-path tests, in GREEN, with a test file and a .env to protect. */
function greenProject() {
  const p = eneoTaskProject();
  const run = (args: string[]) => baton(args, { cwd: p.dir, env: p.env });
  assert.equal(run(['task', 'phase-set', 'GREEN']).code, 0);
  mkdirSync(join(p.dir, 'tests'));
  writeFileSync(join(p.dir, 'tests/test_a.py'), 'def test_a(): assert True\n');
  writeFileSync(join(p.dir, '.env'), 'SECRET=1\n');
  mkdirSync(join(p.dir, 'schemas'));
  return { ...p, run };
}

describe("a schema's mirrors", () => {
  it('never land on a protected file, baton state, the config, another document or the document; nothing is written', () => {
    const p = greenProject();
    try {
      assert.equal(p.run(['init', 'other.json']).code, 0);
      const targets = [
        'tests/test_a.py', // gate-green, now
        '.env', // protect-env
        '.claude/state/phase', // the task's phase mirror
        TASK, // another (configured) document
        'baton.config.json',
        '.baton/notes.json.meta.json', // a sidecar
        'other.json', // a document the config does not name
        'notes.json', // the document itself
      ];
      const before = treeFiles(p.dir);
      for (const [i, target] of targets.entries()) {
        const schema = `schemas/m${i}.json`;
        writeFileSync(join(p.dir, schema), mirrorSchema(target));
        before[schema] = mirrorSchema(target);
        const r = p.run(['init', 'notes.json', '--schema', schema]);
        assert.equal(r.code, 5, `${target}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`mirror file ${target.replaceAll('.', '\\.')} of notes\\.json .*refused`));
        assert.equal(r.stderr.trim().split('\n').length, 1);
        assert.equal(
          library(p.dir, `async (lib) => lib.openDoc('notes.json').init({}, { schema: '${schema}' })`),
          'forbidden',
        );
      }
      assert.deepEqual(treeFiles(p.dir), before);
      // Ordinary mirrors work: a file of its own beside the document, and the task's configured phase mirror.
      writeFileSync(join(p.dir, 'schemas/ok.json'), mirrorSchema('state-word'));
      assert.equal(p.run(['init', 'notes.json', '--schema', 'schemas/ok.json', '--arg', 'x', 'hello']).code, 0);
      assert.equal(readFileSync(join(p.dir, 'state-word'), 'utf8'), 'hello\n');
      assert.equal(p.run(['task', 'phase-set', 'REFACTOR']).code, 0);
      assert.equal(readFileSync(join(p.dir, '.claude/state/phase'), 'utf8'), 'REFACTOR\n');
      // Out of GREEN the test file is no longer protected by the phase rule: the rule is read now.
      writeFileSync(join(p.dir, 'schemas/t.json'), mirrorSchema('tests/test_b.py'));
      assert.equal(p.run(['task', 'phase-set', 'RED']).code, 0);
      assert.equal(p.run(['init', 'n2.json', '--schema', 'schemas/t.json']).code, 0);
    } finally {
      p.cleanup();
    }
  });

  it('are judged on every write that changes one: a link planted after a write is refused; one that already says its word is not written', () => {
    const p = greenProject();
    try {
      writeFileSync(join(p.dir, 'schemas/w.json'), mirrorSchema('word'));
      assert.equal(p.run(['init', 'notes.json', '--schema', 'schemas/w.json', '--arg', 'x', 'hello']).code, 0);
      assert.equal(p.run(['update', 'notes.json', '.y = 1']).code, 0);
      assert.equal(readFileSync(join(p.dir, 'word'), 'utf8'), 'hello\n');
      // Planted after two writes: each next write whose mirror it would change is refused, CLI and library.
      rmSync(join(p.dir, 'word'));
      symlinkSync('.env', join(p.dir, 'word'));
      const before = treeFiles(p.dir);
      for (const expr of ['.y = 2', '.x = "bye"']) {
        const r = p.run(['update', 'notes.json', expr]);
        assert.equal(r.code, 5, r.stderr);
        assert.match(r.stderr, /mirror file \.env of notes\.json .*refused: .*'protect-env'/);
      }
      assert.equal(library(p.dir, `async (lib) => lib.openDoc('notes.json').update('.y = 3')`), 'forbidden');
      assert.deepEqual(treeFiles(p.dir), before);
      // A mirror that already says what it should is not written over, so where it lands is not asked:
      // the write commits and the protected file is left as it was, the same inode.
      const env = () => statSync(join(p.dir, '.env'));
      const { ino, mtimeMs } = env();
      assert.equal(p.run(['update', 'notes.json', '.x = "SECRET=1"']).code, 0);
      assert.equal(p.run(['update', 'notes.json', '.y = 4']).code, 0);
      assert.deepEqual(
        [env().ino, env().mtimeMs, readFileSync(join(p.dir, '.env'), 'utf8')],
        [ino, mtimeMs, 'SECRET=1\n'],
      );
      // And once it would change the file, it is refused again.
      assert.equal(p.run(['update', 'notes.json', '.x = "SECRET=2"']).code, 5);
      assert.equal(readFileSync(join(p.dir, '.env'), 'utf8'), 'SECRET=1\n');
    } finally {
      p.cleanup();
    }
  });

  it('a schema given by path outside the project, or linked out of it, is refused (exit 4); built-in names still work', () => {
    const p = greenProject();
    const outside = tempDir();
    try {
      writeFileSync(join(outside, 'evil.json'), mirrorSchema('x.txt'));
      symlinkSync(join(outside, 'evil.json'), join(p.dir, 'schemas/linked.json'));
      const before = treeFiles(p.dir);
      for (const schema of [
        join(outside, 'evil.json'),
        'schemas/linked.json',
        '../' + join('..', outside, 'evil.json'),
      ]) {
        const r = p.run(['init', 'notes.json', '--schema', schema]);
        assert.equal(r.code, 4, `${schema}: ${r.stderr}`);
        assert.match(r.stderr, /schema file .* is outside the project/);
      }
      assert.equal(
        library(
          p.dir,
          `async (lib) => lib.openDoc('notes.json').init({}, { schema: ${JSON.stringify(join(outside, 'evil.json'))} })`,
        ),
        'unsafe_path',
      );
      assert.deepEqual(treeFiles(p.dir), before);
      assert.equal(p.run(['init', 'notes.json', '--schema', 'any']).code, 0);
    } finally {
      p.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('sidecars are never documents', () => {
  it('set, update, init and clear of a .baton/ file are refused (exit 4) by name or through a symlink, CLI and library', () => {
    const p = greenProject();
    try {
      symlinkSync('.claude/state/.baton', join(p.dir, 'meta'));
      symlinkSync(META, join(p.dir, 'meta.json'));
      const before = treeFiles(p.dir);
      for (const key of [META, 'meta/current-task.json.meta.json', 'meta.json', '.claude/state/.baton/new.json']) {
        for (const args of [
          ['set', key, 'schema', 'any'],
          ['update', key, 'del(.schema)'],
          ['init', key, '--force'],
          ['clear', key],
        ]) {
          const r = p.run(args);
          assert.equal(r.code, 4, `${args.join(' ')}: ${r.stderr}`);
          assert.match(r.stderr, /\.baton\/ folder, baton's own record of a document/);
        }
        assert.equal(library(p.dir, `async (lib) => lib.openDoc('${key}').set('schema', 'any')`), 'unsafe_path');
      }
      assert.equal(
        library(p.dir, `async (lib) => lib.openDoc('x.json', { store: new lib.MemoryStore() }).read()`),
        'ok',
      );
      assert.equal(
        library(p.dir, `async (lib) => lib.openDoc('a/.baton/x.json', { store: new lib.MemoryStore() }).read()`),
        'unsafe_path',
      );
      assert.deepEqual(treeFiles(p.dir), before);
      // The task's sealed and owned rules still hold: its metadata is unchanged.
      assert.match(readFileSync(join(p.dir, META), 'utf8'), /eneo-task/);
    } finally {
      p.cleanup();
    }
  });
});

describe('baton.config.json and its schema files', () => {
  for (const [profile, config] of [
    ['no profile', {}],
    ['eneo', { profile: 'eneo' }],
    [
      'a configured document with a schema file',
      { documents: { notes: { path: 'notes.json', schema: 'schemas/notes.json' } } },
    ],
  ] as const) {
    it(`are denied to Write, Edit and Bash in every phase (${profile}), naming baton or the way out`, () => {
      const { dir, cleanup } = tempTree({ 'baton.config.json': JSON.stringify(config), 'schemas/notes.json': '{}' });
      try {
        const hook = (payload: unknown) =>
          decision(
            baton(['hook', 'PreToolUse'], { cwd: dir, env: { BATON_ROOT: dir }, input: JSON.stringify(payload) }),
          );
        const denied = [
          { tool_name: 'Write', tool_input: { file_path: join(dir, 'baton.config.json'), content: '"disable"' } },
          {
            tool_name: 'Edit',
            tool_input: { file_path: join(dir, 'baton.config.json'), old_string: '{', new_string: '[' },
          },
          { tool_name: 'Bash', tool_input: { command: 'echo "{}" > baton.config.json' } },
          { tool_name: 'Bash', tool_input: { command: 'rm baton.config.json' } },
        ];
        if ('documents' in config)
          denied.push(
            { tool_name: 'Write', tool_input: { file_path: join(dir, 'schemas/notes.json'), content: '{}' } },
            { tool_name: 'Bash', tool_input: { command: 'echo {} > schemas/notes.json' } },
          );
        for (const payload of denied) {
          const answer = hook(payload);
          assert.equal(answer.kind, 'deny', JSON.stringify(payload));
          assert.match(answer.reason, /edit them outside the agent session/);
          assert.match(answer.reason, /\[baton rule baton-state\]/);
        }
        assert.equal(
          hook({ tool_name: 'Write', tool_input: { file_path: join(dir, 'src.ts'), content: 'x' } }).kind,
          'allow',
        );
        assert.equal(hook({ tool_name: 'Bash', tool_input: { command: 'cat baton.config.json' } }).kind, 'allow');
      } finally {
        cleanup();
      }
    });
  }

  it('baton install refuses to change the hooks while a phase rule is active, and works once it is not', () => {
    const p = greenProject();
    try {
      const env = { ...p.env, HOME: join(p.dir, '.home') };
      const install = (args: string[]) => baton(['install', 'claude', ...args], { cwd: p.dir, env });
      assert.equal(p.run(['task', 'phase-set', 'FREE']).code, 0);
      assert.equal(install(['--project']).code, 0);
      assert.equal(p.run(['task', 'phase-set', 'GREEN']).code, 0);
      const before = treeFiles(p.dir);
      for (const args of [['--project', '--remove'], ['--project', '--command', 'true'], ['--user']]) {
        const r = install(args);
        assert.equal(r.code, 5, `${args.join(' ')}: ${r.stderr}`);
        assert.match(
          r.stderr,
          /rule 'gate-green' is active now; nothing was changed: run it outside the agent session/,
        );
      }
      assert.deepEqual(treeFiles(p.dir), before);
      assert.equal(install(['--project', '--remove', '--dry-run']).code, 0);
      assert.equal(p.run(['task', 'phase-set', 'FREE']).code, 0);
      assert.equal(install(['--project', '--remove']).code, 0);
    } finally {
      p.cleanup();
    }
  });
});

describe('baton doctor --repair', () => {
  it('does not write a mirror through a folder linked out of the project; reports why, and repairs one inside', () => {
    const { dir, cleanup } = tempTree({ 'schemas/m.json': mirrorSchema('out/word') });
    const outside = tempDir();
    try {
      const env = { BATON_ROOT: dir };
      assert.equal(
        baton(['init', 'd/x.json', '--schema', 'schemas/m.json', '--arg', 'x', 'one'], { cwd: dir, env }).code,
        0,
      );
      assert.equal(readFileSync(join(dir, 'd/out/word'), 'utf8'), 'one\n');
      renameSync(join(dir, 'd/out'), join(dir, 'd/out-old'));
      symlinkSync(outside, join(dir, 'd/out'));
      const r = baton(['doctor', '--repair', '--json'], { cwd: dir, env });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(treeFiles(outside), {});
      const report = JSON.parse(r.stdout) as { checks: { ok: boolean; check: string; fix: string }[] };
      const row = report.checks.find((c) => c.check === 'd/x.json mirrors can be written');
      assert.match(row?.fix ?? '', /leaves the project root .* through a symlink/);
      // With the folder back, the repair rewrites the mirror.
      rmSync(join(dir, 'd/out'));
      renameSync(join(dir, 'd/out-old'), join(dir, 'd/out'));
      writeFileSync(join(dir, 'd/out/word'), 'stale\n');
      assert.equal(baton(['doctor', '--repair'], { cwd: dir, env }).code, 0);
      assert.equal(readFileSync(join(dir, 'd/out/word'), 'utf8'), 'one\n');
    } finally {
      cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("the sandbox's identity", () => {
  it('a claimed writer (--as, BATON_WRITER) other than the agent is refused owned fields (exit 5, naming the agent); unowned fields work', () => {
    const { dir, cleanup } = tempTree({ 'owned.json': OWNED_SCHEMA });
    try {
      const env = { BATON_ROOT: dir };
      const run = (args: string[], extra: Record<string, string> = {}) =>
        baton(args, { cwd: dir, env: { ...env, ...extra } });
      assert.equal(
        run(['init', 'd.json', '--schema', 'owned.json', '--as', 'orchestrator', '--arg', 'phase', 'RED']).code,
        0,
      );
      mkdirSync(join(dir, '.baton/sandbox'), { recursive: true });
      writeFileSync(join(dir, '.baton/sandbox/identity.json'), '{"agent": "a1", "session": "s1", "host": "claude"}');
      const before = treeFiles(dir);
      for (const [args, extra] of [
        [['set', 'd.json', 'phase', 'GREEN', '--as', 'orchestrator'], {}],
        [['set', 'd.json', 'phase', 'GREEN'], { BATON_WRITER: 'orchestrator' }],
        [['update', 'd.json', '.phase = "GREEN"', '--as', 'orchestrator'], {}],
        [['clear', 'd.json', '--as', 'orchestrator'], {}],
        [['init', 'd.json', '--force', '--schema', 'any', '--as', 'orchestrator'], {}],
      ] as const) {
        const r = run([...args], extra);
        assert.equal(r.code, 5, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /writer orchestrator is claimed, but this command runs as agent a1/);
      }
      assert.equal(
        library(dir, `async (lib) => lib.openDoc('d.json', { writer: 'orchestrator' }).set('phase', 'GREEN')`),
        'forbidden',
      );
      // Without a claim the agent writes as itself, with its own rights: not an owner.
      assert.match(run(['set', 'd.json', 'phase', 'GREEN']).stderr, /writer a1 may not change field phase/);
      assert.deepEqual(treeFiles(dir), before);
      assert.equal(run(['append', 'd.json', 'notes', 'x', '--as', 'orchestrator']).code, 0);
      assert.equal(run(['append', 'd.json', 'notes', 'y']).code, 0);
      assert.match(baton(['history', 'd.json'], { cwd: dir, env }).stdout, /\ta1\t/);
      // Outside a sandbox the file is empty: the claim is the writer, as before.
      writeFileSync(join(dir, '.baton/sandbox/identity.json'), '');
      assert.equal(run(['set', 'd.json', 'phase', 'GREEN', '--as', 'orchestrator']).code, 0);
    } finally {
      cleanup();
    }
  });

  it("the gate denies a subagent's baton call that claims another writer, before it runs; its own name and the main agent pass", () => {
    const { dir, cleanup } = tempTree({ 'baton.config.json': '{}' });
    try {
      const hook = (command: string, agent?: string) =>
        decision(
          baton(['hook', 'PreToolUse'], {
            cwd: dir,
            env: { BATON_ROOT: dir },
            input: JSON.stringify({
              tool_name: 'Bash',
              tool_input: { command },
              session_id: 's1',
              ...(agent ? { agent_id: agent } : {}),
            }),
          }),
        );
      for (const command of [
        'baton set d.json phase GREEN --as orchestrator',
        "npx baton update d.json '.phase = 1' --as='orchestrator'",
        'BATON_WRITER=orchestrator baton set d.json phase GREEN',
        'export BATON_WRITER=orchestrator; baton set d.json phase GREEN',
      ]) {
        const answer = hook(command, 'a1');
        assert.equal(answer.kind, 'deny', command);
        assert.match(answer.reason, /runs baton as writer 'orchestrator', but it comes from agent a1/);
        assert.match(answer.reason, /\[baton rule baton-identity\]/);
        assert.equal(hook(command).kind, 'allow', `the main agent: ${command}`);
      }
      assert.equal(hook('baton set d.json notes x --as a1', 'a1').kind, 'allow');
      assert.equal(hook('baton set d.json notes x', 'a1').kind, 'allow');
    } finally {
      cleanup();
    }
  });

  it('baton ui --allow-writes goes through the same checks: a sidecar revert and a claimed writer are refused (403), nothing changes', async () => {
    const { dir, cleanup } = tempTree({ 'owned.json': OWNED_SCHEMA });
    const env = { BATON_ROOT: dir };
    const run = (args: string[]) => baton(args, { cwd: dir, env });
    assert.equal(
      run(['init', 'd.json', '--schema', 'owned.json', '--as', 'orchestrator', '--arg', 'phase', 'RED']).code,
      0,
    );
    assert.equal(run(['set', 'd.json', 'phase', 'GREEN', '--as', 'orchestrator']).code, 0);
    const child = spawn(process.execPath, [BIN, 'ui', '--allow-writes', '--as', 'orchestrator'], {
      cwd: dir,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) done(out.split('\n')[0] as string);
        });
        child.once('exit', (code) => fail(new Error(`baton ui exited ${code}`)));
      });
      const revert = async (doc: string) =>
        (
          await fetch(new URL('/api/revert', url), {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ doc, rev: 1 }),
          })
        ).status;
      mkdirSync(join(dir, '.baton/sandbox'), { recursive: true });
      writeFileSync(join(dir, '.baton/sandbox/identity.json'), '{"agent": "a1", "session": "s1", "host": "claude"}');
      const before = treeFiles(dir);
      assert.equal(await revert('.baton/d.json.meta.json'), 403);
      assert.equal(await revert('d.json'), 403, 'the ui claims orchestrator, the sandbox says a1');
      assert.deepEqual(treeFiles(dir), before);
      writeFileSync(join(dir, '.baton/sandbox/identity.json'), '');
      assert.equal(await revert('d.json'), 200);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      cleanup();
    }
  });
});
