/**
 * `baton install` in-process (npm run test:fast): its usage errors (exit 2, one line, then the
 * usage), a dry run that prints and writes nothing, an install that is then up to date, and its
 * removal. test/install runs the installed hooks in the real hosts' settings as processes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batonInProcess, messageLines } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

function project() {
  const tree = tempTree({
    'baton.config.json': '{"profile":"eneo"}',
    '.git/HEAD': 'ref: refs/heads/main\n',
    'home/.keep': '',
  });
  const install = (...args: string[]) =>
    batonInProcess(['install', ...args], {
      cwd: tree.dir,
      env: { BATON_ROOT: tree.dir, HOME: join(tree.dir, 'home') },
    });
  return { ...tree, install };
}

describe('baton install', () => {
  const expect = {
    usage:
      'usage: baton install claude [--project|--user] [--command CMD] [--no-statusline] [--replace-statusline] [--serve] [--remove] [--dry-run]',
  };
  it('refuses an unknown host, --project with --user, an empty --command and --serve off claude: exit 2, nothing written', async (t) => {
    const p = project();
    t.after(p.cleanup);
    for (const [args, message] of [
      [
        ['nohost'],
        "baton install: unknown host 'nohost': choose one of claude, codex, gemini, cursor (see docs/hosts.md)",
      ],
      [['claude', '--project', '--user'], 'baton install: choose one of --project and --user'],
      [
        ['claude', '--command', ''],
        "baton install: --command needs a value, e.g. --command 'node /opt/baton/bin/baton.js'",
      ],
      [
        ['codex', '--serve'],
        'baton install: --serve is for claude only: other hosts start the server with baton serve --detach',
      ],
    ] as const) {
      const r = await p.install(...args);
      assert.equal(r.code, 2, args.join(' '));
      // One line, then the usage (two lines: claude's flags, the other hosts').
      assert.deepEqual(r.stderr.split('\n').slice(0, 2), [message, expect.usage], args.join(' '));
    }
    for (const dir of ['.claude', '.codex', 'home/.claude']) assert.equal(existsSync(join(p.dir, dir)), false, dir);
  });

  it('--dry-run prints the settings it would write and writes nothing; then install, up to date, and --remove', async (t) => {
    const p = project();
    t.after(p.cleanup);
    const settings = join(p.dir, '.claude', 'settings.json');
    const dry = await p.install('claude', '--command', 'baton', '--dry-run');
    assert.equal(dry.code, 0);
    assert.equal(JSON.parse(dry.stdout).hooks.PreToolUse[0].hooks[0].command, 'baton hook PreToolUse');
    assert.match(
      dry.stderr,
      /^baton install: \(dry run\) would have installed baton hooks and status line into \S+settings\.json$/m,
    );
    assert.equal(existsSync(settings), false);
    const made = await p.install('claude', '--command', 'baton');
    assert.equal(made.code, 0);
    assert.equal(made.stderr, `baton install: installed baton hooks and status line into ${settings}\n`);
    assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), JSON.parse(dry.stdout));
    const again = await p.install('claude', '--command', 'baton');
    assert.equal(again.stderr, `baton install: ${settings} is already up to date\n`);
    const removed = await p.install('claude', '--command', 'baton', '--remove');
    assert.equal(removed.stderr, `baton install: removed baton hooks and status line from ${settings}\n`);
    assert.equal(JSON.stringify(JSON.parse(readFileSync(settings, 'utf8'))).includes('baton hook'), false);
  });

  it("other hosts get hooks only; a command outside the project is named as this machine's path", async (t) => {
    const p = project();
    t.after(p.cleanup);
    const r = await p.install('gemini', '--no-statusline');
    assert.equal(r.code, 0);
    const [note, done] = messageLines(r.stderr);
    assert.match(
      note as string,
      /^baton install: the hook command names baton by this machine's path .*\.gemini\/settings\.json$/,
    );
    assert.equal(done, `baton install: installed baton hooks into ${join(p.dir, '.gemini', 'settings.json')}`);
  });
});
