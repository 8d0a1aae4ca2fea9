/**
 * CLI commands answered by a running `baton serve` (docs/serve.md, "CLI commands through the
 * server"): the same bytes, exit codes and state as in process; in process whenever the server
 * may not answer as the caller's own process would; never run twice.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { baton, batonAsync, BIN, cleanEnv, ROOT, type RunResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { health, startServe, type Server } from './serve-process.js';
import { cliSocketPath, processContext, type CliRequest } from '../../src/serve/cli-protocol.js';
import { openDoc } from '../../src/index.js';

interface Counts {
  ran: number;
  refused: number;
}

/** The server's count of CLI commands it ran and refused (/health's `cli`). */
async function cliCounts(dir: string): Promise<Counts> {
  return (await health<{ cli: Counts }>(dir)).cli;
}

/** A git project holding a schema; the same files in every copy. */
function project(): string {
  const dir = tempDir('baton-forward-');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  mkdirSync(join(dir, 'sub'));
  writeFileSync(
    join(dir, 'counter.schema.json'),
    JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] }),
  );
  writeFileSync(join(dir, 'bad.json'), 'not json\n');
  for (const args of [
    ['init', 'doc.json', '--argjson', 'n', '1'],
    ['init', 'doc2.json'],
    ['init', 'sdoc.json', '--schema', 'counter.schema.json', '--argjson', 'n', '1'],
  ])
    assert.equal(baton(args, { cwd: dir }).code, 0, args.join(' '));
  return dir;
}

/**
 * The cases, in order (each may depend on the state the ones before left): [folder under the
 * project, argv, extra environment]. What the contract tests (test/cli/) hold each command to: its
 * output, the usage errors, jq errors, schema refusals, missing and corrupt documents, paths from a
 * subfolder and out of the project, the writer from --as and BATON_WRITER, the size limit, --store.
 */
const CASES: [string, string[], Record<string, string>?][] = [
  ['', ['get', 'doc.json', '.n']],
  ['', ['get', 'doc.json', '.missing', '--default', 'x']],
  ['', ['update', 'doc.json', '.n += 1']],
  ['', ['update', 'doc.json', '.n +']],
  ['', ['update', 'doc.json', '.n |= error("boom")']],
  ['', ['update', 'doc.json', '.n = $v', '--argjson', 'v', '{']],
  ['', ['set', 'doc.json', 's', 'hello']],
  ['', ['set', 'doc.json', 'n', '5']],
  ['', ['set', 'doc.json', 'obj', '{"a":1}', '--json']],
  ['', ['append', 'doc.json', 'list', 'x']],
  ['', ['append', 'doc.json', 'list', '{"k":1}', '--json']],
  ['', ['get', 'doc.json', '.list[]']],
  ['', ['set', 'doc.json', 'u', 'héllo ✓ 日本 🎉']],
  ['', ['get', 'doc.json', '.u', '--raw']],
  ['', ['get', 'doc.json', '.s', '--raw']],
  ['', ['consume', 'doc.json', 's']],
  ['', ['consume', 'doc.json', 's']],
  ['', ['get', 'missing.json', '.x']],
  ['', ['get', 'missing.json', '.x', '--default', 'none']],
  ['', ['update', 'missing.json', '.n = 1']],
  ['', ['update', 'missing.json', '.n = 1', '--if-exists']],
  ['', ['get', 'doc.json', '.n', '--no-such-option']],
  ['', ['update', 'doc.json']],
  ['', ['set', 'doc.json', 'n']],
  ['', ['get', '--help']],
  ['', ['update', '-h']],
  ['sub', ['get', '../doc.json', '.n']],
  ['sub', ['update', '../doc.json', '.n += 10']],
  ['sub', ['get', '../../outside.json', '.n']],
  ['', ['set', 'doc.json', 'n', '7', '--as', 'alice']],
  ['', ['update', 'doc.json', '.n += 1'], { BATON_WRITER: 'bob' }],
  ['', ['--store', 'file:', 'get', 'doc.json', '.n']],
  ['', ['--store=file:', 'update', 'doc.json', '.n += 1']],
  ['', ['update', 'sdoc.json', '.n = -1']],
  ['', ['set', 'sdoc.json', 'n', 'abc']],
  ['', ['get', 'bad.json', '.x']],
  ['', ['update', 'bad.json', '.x = 1']],
  ['', ['set', 'doc.json', 's', 'far too long a value'], { BATON_MAX_VALUE_BYTES: '4' }],
  ['', ['clear', 'doc2.json']],
  ['', ['get', 'doc2.json', '.']],
  ['', ['clear', 'doc2.json']],
];

/** Runs the cases in `dir`, its path written as DIR in what they print. */
function runCases(dir: string): RunResult[] {
  return CASES.map(([sub, args, env]) => {
    const r = baton(args, { cwd: join(dir, sub), ...(env ? { env } : {}) });
    const masked = (text: string) => text.replaceAll(dir, 'DIR');
    return { code: r.code, stdout: masked(r.stdout), stderr: masked(r.stderr) };
  });
}

/** Every document's bytes, and each history as baton prints it with its times masked. */
function state(dir: string): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    seen[name] = readFileSync(join(dir, name), 'utf8');
    const history = baton(['history', name, '--json'], { cwd: dir });
    seen[`history of ${name}`] = `${history.code} ${history.stdout.replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"T"')}`;
  }
  return seen;
}

async function served(dir: string, t: { after(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const server = await startServe(dir, ['--port', '0'], env);
  t.after(server.stop);
  return server;
}

describe('CLI commands through baton serve', () => {
  it('answer each contract case as the command in process does: output, exit code, documents and history', async (t) => {
    const plain = project();
    const dir = project();
    await served(dir, t);
    const inProcess = runCases(plain);
    const before = await cliCounts(dir);
    const through = runCases(dir);
    assert.deepEqual(await cliCounts(dir), { ran: before.ran + CASES.length, refused: 0 }, 'the server ran every case');
    for (const [i, [, args]] of CASES.entries()) assert.deepEqual(through[i], inProcess[i], args.join(' '));
    assert.deepEqual(state(dir), state(plain));
  });

  it('run in process, silently, when the server may not answer as the caller would', async (t) => {
    const dir = project();
    await served(dir, t);
    const counts = () => cliCounts(dir);
    const start = await counts();
    // Inside the phase sandbox (state read-only there): the client does not ask.
    assert.equal(baton(['update', 'doc.json', '.n += 1'], { cwd: dir, env: { BATON_PHASE_SANDBOX: '1' } }).code, 0);
    // Another umask: the server refuses (a file the command makes would get its own), the client runs it.
    const umask = spawnSync(
      '/bin/sh',
      ['-c', `umask 077 && exec "${process.execPath}" "${BIN}" update doc.json '.n += 1'`],
      {
        cwd: dir,
        env: cleanEnv(),
        encoding: 'utf8',
      },
    );
    assert.equal(umask.status, 0, umask.stderr);
    // A sandboxed caller (no_new_privs, as Landlock and bubblewrap set it): refused, so the server
    // outside the sandbox writes nothing for it.
    const sandboxed = spawnSync('setpriv', ['--no-new-privs', process.execPath, BIN, 'update', 'doc.json', '.n += 1'], {
      cwd: dir,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    assert.equal(sandboxed.status, 0, sandboxed.stderr);
    // Another BATON_HOST_ID (the lock records the server's): refused.
    assert.equal(baton(['update', 'doc.json', '.n += 1'], { cwd: dir, env: { BATON_HOST_ID: 'elsewhere' } }).code, 0);
    assert.deepEqual(await counts(), { ran: start.ran, refused: start.refused + 3 });
    // serve.json of another version, or of another build of this version: not asked at all.
    const file = join(dir, '.baton', 'serve.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/"version":"[^"]*"/, '"version":"0.0.0-other"'));
    assert.equal(baton(['update', 'doc.json', '.n += 1'], { cwd: dir }).code, 0);
    writeFileSync(file, text.replace(/"build":"[^"]*"/, '"build":"0123456789abcdef"'));
    assert.equal(baton(['update', 'doc.json', '.n += 1'], { cwd: dir }).code, 0);
    writeFileSync(file, text);
    assert.deepEqual(await counts(), { ran: start.ran, refused: start.refused + 3 });
    assert.equal(baton(['get', 'doc.json', '.n'], { cwd: dir }).stdout, '7\n');
    assert.equal((await counts()).ran, start.ran + 1);
  });

  it('with --pending-deprecation (process.binding() would warn) the client takes node:net: the same bytes', async (t) => {
    const dir = project();
    await served(dir, t);
    const before = await cliCounts(dir);
    for (const env of [{ NODE_OPTIONS: '--pending-deprecation' }, { NODE_PENDING_DEPRECATION: '1' }]) {
      const get = baton(['get', 'doc.json', '.n'], { cwd: dir, env });
      assert.deepEqual([get.code, get.stdout, get.stderr], [0, '1\n', '']);
    }
    assert.equal((await cliCounts(dir)).ran, before.ran + 2);
  });

  it('a forwarded command runs with the caller’s environment, not the server’s', async (t) => {
    const dir = project();
    await served(dir, t, { BATON_WRITER: 'server-writer', BATON_MAX_VALUE_BYTES: '4' });
    const before = await cliCounts(dir);
    assert.equal(
      baton(['set', 'doc.json', 's', 'a long value'], { cwd: dir, env: { BATON_WRITER: 'caller' } }).code,
      0,
    );
    assert.equal((await cliCounts(dir)).ran, before.ran + 1);
    const newest = baton(['history', 'doc.json', '--json'], { cwd: dir }).stdout.split('\n')[0] ?? '{}';
    assert.equal((JSON.parse(newest) as { writer?: string }).writer, 'caller');
  });

  it('a planted serve.json or a socket in a folder others may enter is not believed: no forged value, no forged success', async (t) => {
    const dir = project();
    const tmp = tempDir('baton-fwd-tmp-');
    const env = { TMPDIR: tmp };
    // A rogue answering every command with a forged value and exit 0, at the project's socket path,
    // in a user folder others may write to.
    const folder = join(tmp, `baton-${process.getuid?.()}`);
    mkdirSync(folder, { mode: 0o777 });
    chmodSync(folder, 0o777);
    const rogue = createServer((socket) => {
      socket.once('data', () => {
        socket.on('error', () => {});
        socket.write('HTTP/1.1 101 Switching Protocols\r\n\r\n{"ready":true}\n');
        socket.end('{"output":[[1,"forged\\n"]],"exit":0}\n');
      });
    });
    const path = cliSocketPath(folder, realpathSync(dir));
    assert.ok(path, 'the test folder is short enough for a socket');
    await new Promise<void>((resolve) => rogue.listen(path, resolve));
    t.after(() => rogue.close());
    // A serve.json naming a server that is not there (the client takes no address from it).
    mkdirSync(join(dir, '.baton'), { recursive: true });
    writeFileSync(
      join(dir, '.baton', 'serve.json'),
      JSON.stringify({ url: 'http://127.0.0.1:9', pid: 1, token: 'planted-token-0123456789', ...identity() }),
      { mode: 0o600 },
    );
    // Started without blocking this process, which answers as the rogue.
    const get = await batonAsync(['get', 'doc.json', '.n'], { cwd: dir, env });
    assert.deepEqual([get.code, get.stdout], [0, '1\n']);
    const update = await batonAsync(['update', 'doc.json', '.n += 1'], { cwd: dir, env });
    assert.equal(update.code, 0, update.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')).n, 2, 'the update ran in process');
    // The same rogue in the user's own folder is believed: the standing limit (docs/serve.md).
    chmodSync(folder, 0o700);
    assert.equal((await batonAsync(['get', 'doc.json', '.n'], { cwd: dir, env })).stdout, 'forged\n');
    rmSync(path, { force: true });
  });

  it('a server that takes the connection but never says ready: after 5 s the command runs in process, and go is never sent', async (t) => {
    const dir = project();
    const tmp = tempDir('baton-fwd-tmp-');
    const env = { TMPDIR: tmp };
    const folder = join(tmp, `baton-${process.getuid?.()}`);
    mkdirSync(folder, { mode: 0o700 });
    let heard = '';
    let closed: boolean | undefined;
    // Silent: it reads the request and answers nothing, so only the client's ready timeout ends the wait.
    const silent = createServer((socket) => {
      socket.on('data', (chunk) => (heard += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => (closed = true));
    });
    const path = cliSocketPath(folder, realpathSync(dir));
    assert.ok(path, 'the test folder is short enough for a socket');
    await new Promise<void>((resolve) => silent.listen(path, resolve));
    t.after(() => silent.close());
    mkdirSync(join(dir, '.baton'), { recursive: true });
    writeFileSync(
      join(dir, '.baton', 'serve.json'),
      JSON.stringify({ url: 'http://127.0.0.1:9', pid: 1, token: 'silent-token-0123456789', ...identity() }),
      { mode: 0o600 },
    );
    // The timeout is Atomics.waitAsync's, or setTimeout's on a Node without it.
    const noWaitAsync = join(tmp, 'no-wait-async.cjs');
    writeFileSync(noWaitAsync, 'delete Atomics.waitAsync;\n');
    for (const [n, extra] of [
      [2, {}],
      [3, { NODE_OPTIONS: `--require ${noWaitAsync}` }],
    ] as const) {
      heard = '';
      closed = false;
      const update = await batonAsync(['update', 'doc.json', '.n += 1'], { cwd: dir, env: { ...env, ...extra } });
      assert.deepEqual([update.code, update.stderr], [0, '']);
      assert.equal(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')).n, n, 'the update ran in process');
      assert.match(heard, /^GET \/cli HTTP\/1\.1\r\n/, 'the client asked the silent server');
      assert.ok(!heard.includes('\ngo\n'), 'go was never sent');
      assert.ok(closed, 'the client closed its connection');
    }
  });

  it('50 writers through the server lose nothing and apply nothing twice', async (t) => {
    const dir = project();
    await served(dir, t);
    const before = await cliCounts(dir);
    const results = await storm(dir, 50);
    assert.deepEqual(
      results.map((r) => r.code),
      results.map(() => 0),
    );
    const seen = (JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')) as { seen: string[] }).seen;
    assert.deepEqual([...seen].sort(), results.map((_, i) => `c${i}`).sort());
    // Through the server, but not necessarily all: a writer whose ready does not come within the
    // client's 5 s (a machine at load 15, seen once) runs in process, and that is the contract.
    const ran = (await cliCounts(dir)).ran - before.ran;
    assert.ok(ran > 0 && ran <= 50, `the server ran ${ran} of the 50`);
  });

  it('a server killed mid-storm: each writer succeeded, ran in process before the server took it, or says the outcome is unknown; none applied twice', async (t) => {
    const dir = project();
    const server: Server = await served(dir, t);
    const pending = storm(dir, 50);
    // Killed once it has run some (no clock: its own count).
    while ((await cliCounts(dir)).ran < 5) await new Promise((resolve) => setImmediate(resolve));
    server.child.kill('SIGKILL');
    const results = await pending;
    const seen = (JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')) as { seen?: string[] }).seen ?? [];
    assert.equal(new Set(seen).size, seen.length, `applied twice: ${seen.join(' ')}`);
    for (const [i, r] of results.entries()) {
      if (r.code === 0) assert.ok(seen.includes(`c${i}`), `c${i} succeeded but is not applied`);
      else {
        assert.equal(r.code, 8, r.stderr);
        assert.match(r.stderr, /whether it was applied is unknown: look at the document's history/);
      }
    }
    for (const id of seen) assert.ok(results[Number(id.slice(1))], id);
  });
});

/** `count` writers at once, each adding its own id to `.seen`. */
function storm(dir: string, count: number): Promise<RunResult[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      batonAsync(['update', 'doc.json', '.seen += [$id]', '--arg', 'id', `c${i}`], { cwd: dir }),
    ),
  );
}

/** This build's version and build, as its server writes them in serve.json. */
function identity(): { version: string; build: string } {
  const version = baton(['--version'], { cwd: tempDir('baton-forward-v-') })
    .stdout.trim()
    .replace(/^baton /, '');
  // dist/ and the plugin's bundle are built from the same sources by one build: one identity.
  return { version, build: readFileSync(join(ROOT, 'plugin', 'dist', 'build-id'), 'utf8').trim() };
}

/**
 * A stand-in for the server at the project's socket, in a user folder of this user's own (0700),
 * which the client believes (the standing limit, docs/serve.md): it answers the request with
 * `ready(socket)` and `go` with `result(socket)`. The environment that points a client at it.
 */
async function standIn(
  t: { after(fn: () => unknown): void },
  dir: string,
  ready: (socket: Socket) => Promise<void>,
  result: (socket: Socket) => void,
): Promise<Record<string, string>> {
  const tmp = tempDir('baton-fwd-tmp-');
  const folder = join(tmp, `baton-${process.getuid?.()}`);
  mkdirSync(folder, { mode: 0o700 });
  const server = createServer((socket) => {
    socket.on('error', () => {});
    let heard = '';
    let stage = 0;
    socket.on('data', (chunk) => {
      heard += chunk.toString('latin1');
      const body = heard.slice(heard.indexOf('\r\n\r\n') + 4);
      if (stage === 0 && body.includes('\n')) {
        stage = 1;
        void ready(socket);
      } else if (stage === 1 && body.endsWith('\ngo\n')) {
        stage = 2;
        result(socket);
      }
    });
  });
  const path = cliSocketPath(folder, realpathSync(dir));
  assert.ok(path, 'the test folder is short enough for a socket');
  await new Promise<void>((resolve) => server.listen(path, resolve));
  t.after(() => server.close());
  mkdirSync(join(dir, '.baton'), { recursive: true });
  writeFileSync(
    join(dir, '.baton', 'serve.json'),
    JSON.stringify({ url: 'http://127.0.0.1:9', pid: 1, token: 'standin-token-0123456789', ...identity() }),
    { mode: 0o600 },
  );
  return { TMPDIR: tmp };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a consume whose value would not fit in the answer', () => {
  // Before, the server took the value and its answer passed the client's 64 MiB: the CLI exited 8
  // ("whether it was applied is unknown") with the value gone from the document and never printed.
  it('is handed back before it is taken and runs in process: printed whole, taken once', async (t) => {
    const dir = project();
    // Past the default 16 MiB a document may be (its compact JSON), a project's limit may allow it.
    writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { maxDocumentBytes: 80 * 1024 * 1024 } }));
    // Strings of a value are held to 64 KiB each (maxValueBytes), a list of them is not: 1.1 M of 60
    // characters print 66 MiB, and take 68 MiB in the answer (each quote escaped).
    const items = 1_100_000;
    const doc = openDoc(join(dir, 'doc.json'), { cwd: dir, env: cleanEnv() });
    await doc.set(
      'big',
      Array.from({ length: items }, () => 'x'.repeat(60)),
    );
    await doc.set('small', 's');
    await served(dir, t);
    const before = await cliCounts(dir);
    const out = join(dir, 'out.txt');
    const fd = openSync(out, 'w');
    const consumed = spawnSync(process.execPath, [BIN, 'consume', 'doc.json', 'big'], {
      cwd: dir,
      env: cleanEnv(),
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
    });
    closeSync(fd);
    assert.equal(consumed.status, 0, consumed.stderr);
    assert.equal(consumed.stderr, '');
    const printed = readFileSync(out, 'latin1');
    assert.equal(printed, `${JSON.stringify(Array.from({ length: items }, () => 'x'.repeat(60)))}\n`);
    assert.equal((await cliCounts(dir)).ran, before.ran + 1, 'the server took it, and handed it back');
    assert.equal(baton(['get', 'doc.json', '.big'], { cwd: dir }).stdout, 'null\n', 'taken');
    const history = baton(['history', 'doc.json'], { cwd: dir }).stdout;
    assert.equal(history.match(/consume/g)?.length, 1, history);
    // A value that fits is still the server's.
    const small = await batonAsync(['consume', 'doc.json', 'small'], { cwd: dir });
    assert.deepEqual([small.code, small.stdout, small.stderr], [0, 's\n', '']);
    assert.equal((await cliCounts(dir)).ran, before.ran + 3, 'the big consume, the get, the small consume');
  });

  // The handback runs the consume a second time, in the CLI's process: between the two, another
  // consumer may take the value. Consume-once must hold across that gap.
  it('racing consumers, each handed back or not: the value is printed by exactly one, taken once', async (t) => {
    const dir = project();
    writeFileSync(join(dir, 'baton.config.json'), JSON.stringify({ limits: { maxDocumentBytes: 80 * 1024 * 1024 } }));
    const value = Array.from({ length: 1_100_000 }, (_, i) => `${i}`.padStart(60, 'x'));
    const doc = openDoc(join(dir, 'doc.json'), { cwd: dir, env: cleanEnv() });
    await doc.set('big', value);
    await served(dir, t);
    const before = await cliCounts(dir);
    const racers = 4;
    const outs = Array.from({ length: racers }, (_, i) => join(dir, `out${i}.txt`));
    const exits = await Promise.all(
      outs.map(
        (out) =>
          new Promise<[number | null, string]>((resolve) => {
            const fd = openSync(out, 'w');
            const child = spawn(process.execPath, [BIN, 'consume', 'doc.json', 'big'], {
              cwd: dir,
              env: cleanEnv(),
              stdio: ['ignore', fd, 'pipe'],
            });
            closeSync(fd);
            let stderr = '';
            child.stderr!.on('data', (chunk) => (stderr += chunk));
            child.on('close', (code) => resolve([code, stderr]));
          }),
      ),
    );
    assert.deepEqual(
      exits,
      Array.from({ length: racers }, () => [0, '']),
    );
    const printed = outs.map((out) => readFileSync(out, 'latin1'));
    const whole = `${JSON.stringify(value)}\n`;
    assert.equal(printed.filter((text) => text === whole).length, 1, 'one consumer printed the value');
    assert.equal(printed.filter((text) => text === 'null\n').length, racers - 1, 'the others printed null');
    assert.equal(baton(['get', 'doc.json', '.big'], { cwd: dir }).stdout, 'null\n', 'taken');
    const history = baton(['history', 'doc.json'], { cwd: dir }).stdout;
    assert.equal(history.match(/consume/g)?.length, 1, history);
    assert.ok((await cliCounts(dir)).ran > before.ran, 'the server took consumes, and handed the value back');
  });
});

describe('the answer at the CLI socket', () => {
  it('the server sends the 101 and ready in one write, once the request is in', async (t) => {
    const dir = project();
    await served(dir, t);
    const { url, token } = JSON.parse(readFileSync(join(dir, '.baton', 'serve.json'), 'utf8')) as Record<
      string,
      string
    >;
    const folder = join(cleanEnv().TMPDIR!, `baton-${process.getuid?.()}`);
    const socket = connect(cliSocketPath(folder, realpathSync(dir))!);
    t.after(() => socket.destroy());
    const chunks: string[] = [];
    socket.on('data', (chunk) => chunks.push(chunk.toString('latin1')));
    socket.write(
      `GET /cli HTTP/1.1\r\nHost: ${url!.slice('http://'.length)}\r\nAuthorization: Bearer ${token}\r\n` +
        'Connection: Upgrade\r\nUpgrade: baton-cli\r\n\r\n',
    );
    // Two round trips on another connection: by then the server has read the head.
    await cliCounts(dir);
    await cliCounts(dir);
    assert.deepEqual(chunks, [], 'nothing is sent before the request: the 101 goes with ready');
    const own = processContext((file) => readFileSync(file, 'utf8'), readlinkSync)!;
    const request: CliRequest = {
      ...identity(),
      argv: ['get', 'doc.json', '.n'],
      cwd: dir,
      env: cleanEnv() as Record<string, string>,
      uid: process.getuid?.() ?? -1,
      gid: process.getgid?.() ?? -1,
      umask: own.umask,
      context: own.context,
    };
    socket.write(`${JSON.stringify(request)}\n`);
    while (!chunks.join('').endsWith('\n')) await pause();
    assert.equal(chunks.length, 1, 'one write, one read');
    assert.match(chunks[0]!, /^HTTP\/1\.1 101 Switching Protocols\r\n.*\r\n\r\n\{"ready":true\}\n$/s);
    // No go: the server runs nothing.
    socket.destroy();
    assert.deepEqual(await cliCounts(dir), { ran: 0, refused: 0 });
  });

  it('the client reads the 101 and ready in one piece or cut anywhere, and prints the result', async (t) => {
    const answer =
      'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: baton-cli\r\n\r\n{"ready":true}\n';
    for (const cuts of [[], [16], [40, 85, 90]]) {
      const dir = project();
      const env = await standIn(
        t,
        dir,
        async (socket) => {
          let from = 0;
          for (const cut of [...cuts, answer.length]) {
            socket.write(answer.slice(from, cut));
            from = cut;
            await pause();
          }
        },
        (socket) => socket.end('{"output":[[1,"from the stand-in\\n"]],"exit":0}\n'),
      );
      const update = await batonAsync(['update', 'doc.json', '.n += 1'], { cwd: dir, env });
      assert.deepEqual(
        [update.code, update.stdout, update.stderr],
        [0, 'from the stand-in\n', ''],
        `cut at ${cuts.join(',')}`,
      );
      assert.equal(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8')).n, 1, 'the stand-in applied nothing');
    }
  });

  it('an answer past 64 MiB is not read whole: a write exits 8 with its outcome unknown, a get runs in process', async (t) => {
    const dir = project();
    const env = await standIn(
      t,
      dir,
      async (socket) => void socket.write('HTTP/1.1 101 Switching Protocols\r\n\r\n{"ready":true}\n'),
      (socket) => socket.end(`{"output":[[1,"${'x'.repeat(64 * 1024 * 1024)}"]],"exit":0}\n`),
    );
    const update = await batonAsync(['update', 'doc.json', '.n += 1'], { cwd: dir, env });
    assert.equal(update.code, 8, update.stderr);
    assert.equal(update.stdout, '');
    assert.match(
      update.stderr,
      /^baton update: baton serve \(pid 1\) took this command, but its answer was past 64 MiB, .*whether it was applied is unknown: look at the document's history \(baton history FILE\)/,
    );
    assert.equal(update.stderr.split('\n').length, 2, 'one line');
    const get = await batonAsync(['get', 'doc.json', '.n'], { cwd: dir, env });
    assert.deepEqual([get.code, get.stdout], [0, '1\n']);
  });
});
