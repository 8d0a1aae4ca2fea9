/**
 * The plugin's shell client (plugin/bin/baton -> plugin/lib/serve-client.bash) and what it reads:
 * the host's payload whole, whatever its size and bytes, and the server's answer, bounded by the
 * watchdog's alarm alone (the read has no timeout of its own), so a server that takes a request and
 * never answers still ends in an in-process judgment: the gated write denied, the status line drawn.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answered, BUILD, greenProject, runWrapper, servedGreenProject, writePayload } from './serve-process.js';

describe("baton serve's shell client", () => {
  it('hands the server the payload whole: 1 MiB of lines, backslashes, quotes and UTF-8, answered and signed as in process', async (t) => {
    const { p } = await servedGreenProject(t);
    const line = 'const s = "a\\\\b \\"q\\" \t ünïcödé ✓";\n';
    const content = line.repeat(Math.ceil((1 << 20) / line.length));
    for (const file of ['tests/test_gate.py', 'src/app.py']) {
      // A trailing newline, as some hosts send one, is kept as sent.
      for (const payload of [writePayload(p.dir, file, content), `${writePayload(p.dir, file, content)}\n`]) {
        const before = await answered(p.dir);
        const served = await runWrapper(p.dir, ['hook', 'PreToolUse'], payload);
        assert.equal(await answered(p.dir), before + 1, 'the server answered, and its tag checked');
        assert.deepEqual(served, await runWrapper(p.dir, ['hook', 'PreToolUse'], payload, { BATON_SERVE_SKIP: '1' }));
        if (file.startsWith('tests/')) assert.match(served.stdout, /"permissionDecision":"deny".*gate-green/);
        else assert.equal(served.stdout, '');
      }
    }
  });

  // The guard is the hang itself: a read that only the alarm can end never returned when the alarm's
  // trap did nothing (bash retries read(2) after a trap), so this test would time out.
  it(
    'a server that takes the request and never answers: at the alarm, the write is denied and the status line drawn, both in process',
    { timeout: 100_000 },
    async (t) => {
      const p = greenProject();
      t.after(p.cleanup);
      const sockets: Socket[] = [];
      const silent = createServer((socket) => {
        sockets.push(socket);
        socket.resume();
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      t.after(() => {
        sockets.forEach((socket) => socket.destroy());
        silent.close();
      });
      const port = (silent.address() as AddressInfo).port;
      spawnSync('mkdir', ['-p', join(p.dir, '.baton')]);
      // A live pid (this test's), so the client asks it.
      writeFileSync(
        join(p.dir, '.baton', 'serve.json'),
        `${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid, token: 't', version: 'x', build: BUILD })}\n`,
        { mode: 0o600 },
      );
      const log = join(p.dir, 'client.log');
      const denied = await runWrapper(p.dir, ['hook', 'PreToolUse'], writePayload(p.dir, 'tests/test_gate.py'), {
        BATON_DEBUG_LOG: log,
      });
      assert.match(denied.stdout, /"permissionDecision":"deny".*gate-green/);
      assert.match(readFileSync(log, 'utf8'), /deny by gate-green/);
      const status = JSON.stringify({
        model: { display_name: 'Opus' },
        workspace: { current_dir: p.dir, project_dir: p.dir },
      });
      const drawn = await runWrapper(p.dir, ['statusline'], status);
      assert.equal(drawn.code, 0);
      assert.match(drawn.stdout, /demo/);
      assert.deepEqual(drawn, await runWrapper(p.dir, ['statusline'], status, { BATON_SERVE_SKIP: '1' }));
      assert.ok(sockets.length >= 2, 'both asked the silent server first');
    },
  );
});
