import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

// baton as a user gets it: from the packed tarball (globally and per project) and from a git URL,
// run from folders that have nothing to do with this checkout.
const NAME = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).name as string;
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`,
  );
  return result.stdout;
}

const NPM = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const LIBRARY_USE = `
  import { openDoc } from '${NAME}';
  const doc = openDoc('notes.json', { writer: 'me' });
  await doc.init({ n: 1 });
  await doc.update('.n += 1');
  console.log(JSON.stringify((await doc.get('.n'))[0]));
`;

describe(`the npm package (${NAME})`, () => {
  // The dist/ that `npm test` built; packing does not rebuild it (--ignore-scripts).
  const tree = tempTree({
    'home/.keep': '',
    'consumer/package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
  });
  after(tree.cleanup);
  const env = cleanEnv({ HOME: join(tree.dir, 'home'), npm_config_cache: join(process.env.HOME ?? tree.dir, '.npm') });
  const packed = sh('npm', ['pack', '--ignore-scripts', '--pack-destination', tree.dir, ...NPM], ROOT, env)
    .trim()
    .split('\n')
    .at(-1) as string;
  const tarball = join(tree.dir, packed);

  it('packs the current build only, with the CLI, the library, its types, the schemas and the plugin', () => {
    const files = sh('tar', ['-tzf', tarball], tree.dir).split('\n');
    for (const file of [
      'package/bin/baton.js',
      'package/dist/cli.js',
      'package/dist/index.mjs',
      'package/dist/index.d.ts',
      'package/plugin/dist/cli.js',
      'package/plugin/.claude-plugin/plugin.json',
    ]) {
      assert.ok(files.includes(file), `${file} is packed`);
    }
    const builds = new Set(files.filter((f) => f.startsWith('package/dist/builds/')).map((f) => f.split('/')[3]));
    assert.equal(builds.size, 1, `one build packed, not ${[...builds].join(', ')}`);
    assert.ok(!files.some((f) => f.includes('/.cache/')), 'no code cache packed');
  });

  it('installs globally: baton --version and baton demo run from an unrelated folder', () => {
    const prefix = join(tree.dir, 'global');
    sh('npm', ['install', '--global', '--prefix', prefix, tarball, ...NPM], tree.dir, env);
    const bin = join(prefix, 'bin', 'baton');
    const elsewhere = join(tree.dir, 'home');
    assert.equal(sh(bin, ['--version'], elsewhere, env), `baton ${VERSION}\n`);
    assert.match(sh(bin, ['demo', '--waves', '1', '--agents', '2', '--updates', '2'], elsewhere, env), /0 lost/);
  });

  it('installs per project (npm i -D): npx baton and the library by package name', () => {
    const consumer = join(tree.dir, 'consumer');
    sh('npm', ['install', '--save-dev', tarball, ...NPM], consumer, env);
    assert.equal(sh('npx', ['--no-install', 'baton', '--version'], consumer, env), `baton ${VERSION}\n`);
    writeFileSync(join(consumer, 'use.mjs'), LIBRARY_USE);
    assert.equal(sh(process.execPath, ['use.mjs'], consumer, env), '2\n');
    assert.ok(existsSync(join(consumer, 'notes.json')));
  });
});

describe('installing from a git URL', () => {
  it('builds through prepare, without the Claude Code CLI, and works; the quick start works in the clone', (t) => {
    const tree = tempTree({
      'home/.keep': '',
      'consumer/package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
    });
    t.after(tree.cleanup);
    const env = cleanEnv({
      HOME: join(tree.dir, 'home'),
      npm_config_cache: join(process.env.HOME ?? tree.dir, '.npm'),
    });
    // A clone of the committed tree stands in for the remote.
    const repo = join(tree.dir, 'repo');
    sh('git', ['clone', '-q', '--no-hardlinks', ROOT, repo], tree.dir, env);
    const consumer = join(tree.dir, 'consumer');
    sh('npm', ['install', `git+file://${repo}`, ...NPM], consumer, env);
    const installed = join(consumer, 'node_modules', NAME);
    assert.ok(existsSync(join(installed, 'dist', 'cli.js')), 'prepare built dist/');
    assert.ok(!existsSync(join(consumer, 'node_modules', '@anthropic-ai')), 'the Claude Code CLI is not pulled in');
    assert.deepEqual(readdirSync(join(installed, 'dist', 'builds')).length, 1);
    assert.equal(sh('npx', ['--no-install', 'baton', '--version'], consumer, env), `baton ${VERSION}\n`);
    writeFileSync(join(consumer, 'use.mjs'), LIBRARY_USE);
    assert.equal(sh(process.execPath, ['use.mjs'], consumer, env), '2\n');

    // The README's quick start, `npm ci && npx baton demo`, in that fresh clone.
    const quick = spawnSync(
      'sh',
      ['-c', 'npm ci --no-audit --no-fund --prefer-offline --loglevel=error && npx baton demo'],
      { cwd: repo, env, encoding: 'utf8' },
    );
    assert.equal(quick.status, 0, `${quick.stdout}\n${quick.stderr}`);
    assert.match(quick.stdout, /ok: 60\/60 concurrent updates landed, 12 phase outputs recorded, 0 lost/);
  });
});
