/**
 * The status line in `baton serve`: drawn by the same engine as every hook, so nothing it waits on
 * may hold a hook up. Its git counts come from a git process; the server must not block on it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { greenProject, serveFile, startServe, writePayload, type Server } from './serve-process.js';

function post(dir: string, path: string, body: string): Promise<string> {
  const { url, token } = serveFile(dir);
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe("baton serve's status line", () => {
  it(
    'a hook is answered while a status line waits on its git: the git runs beside the server, not in its way',
    { timeout: 100_000 },
    async (t) => {
      const p = greenProject();
      // Ten minutes for git: the wait this test makes is its own, not a slow git's.
      writeFileSync(
        join(p.dir, 'baton.config.json'),
        JSON.stringify({ profile: 'eneo', statusline: { gitTimeoutMs: 600_000 } }),
      );
      const started = join(p.dir, '.git-started');
      const release = join(p.dir, '.git-release');
      let server: Server | undefined = undefined;
      // In this order: a git still waiting is let go, so the server can stop, before the folder goes.
      t.after(async () => {
        if (server) {
          writeFileSync(release, '');
          await server.stop();
        }
        p.cleanup();
      });
      // The server's git says it started, then answers only once the test lets it: a server that waited
      // on it could answer no hook before then, and the test would hang to its guard.
      mkdirSync(join(p.dir, '.bin'));
      writeFileSync(
        join(p.dir, '.bin', 'git'),
        `#!/bin/sh\nexec perl -e 'open(my $f, ">", "${started}"); close $f; select(undef, undef, undef, 0.02) until -e "${release}"; print " M a.txt\\0"'\n`,
        { mode: 0o755 },
      );
      server = await startServe(p.dir, ['--port', '0'], {
        PATH: `${join(p.dir, '.bin')}:${process.env.PATH ?? ''}`,
      });

      const drawn = post(
        p.dir,
        '/statusline',
        JSON.stringify({ session_id: 's1', model: { display_name: 'Opus' }, workspace: { current_dir: p.dir } }),
      );
      while (!existsSync(started)) await sleep(20);
      const hook = await post(p.dir, '/hooks/PreToolUse', writePayload(p.dir, 'tests/test_gate.py'));
      assert.match(hook, /"permissionDecision":"deny".*gate-green/);
      writeFileSync(release, '');
      assert.match(await drawn, /demo/);
      assert.match(await drawn, /~1/, 'the counts of the git the server waited for');
    },
  );
});
