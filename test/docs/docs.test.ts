import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transformSync } from 'esbuild';
import { BIN, ROOT, cleanEnv } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';
import { matchesOutput, readBlocks, type Block } from './blocks.js';

// Every code block of README.md and docs/*.md, run as docs/README.md says ("Code blocks are tests").
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const SHELL = new Set(['sh', 'bash', 'shell']);
const SCRIPT = new Set(['ts', 'js', 'typescript', 'javascript', 'mjs']);
const TSX = import.meta.resolve('tsx');

/** A temp project: a git repo with an empty HOME, `baton` on PATH and the package importable by name. */
function project() {
  const tree = tempTree({ 'bin/baton': `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, 'home/.keep': '' });
  chmodSync(join(tree.dir, 'bin', 'baton'), 0o755);
  const dir = join(tree.dir, 'project');
  mkdirSync(dir);
  mkdirSync(join(tree.dir, 'node_modules'));
  symlinkSync(ROOT, join(tree.dir, 'node_modules', 'baton-state'));
  spawnSync('git', ['init', '-q', dir]);
  const env = cleanEnv({
    HOME: join(tree.dir, 'home'),
    PATH: `${join(tree.dir, 'bin')}:${process.env.PATH}`,
    NO_COLOR: '1',
  });
  return { dir, env, cleanup: tree.cleanup };
}

function run(block: Block, dir: string, env: NodeJS.ProcessEnv) {
  const where = `${block.file}:${block.line}`;
  const syntaxOnly = block.tags.includes('syntax');
  if (SHELL.has(block.lang)) {
    const result = spawnSync('bash', syntaxOnly ? ['-n'] : ['-e', '-o', 'pipefail'], {
      cwd: dir,
      env,
      input: block.code,
      encoding: 'utf8',
    });
    expectSuccess(where, result, block.output);
    return;
  }
  const typescript = block.lang === 'ts' || block.lang === 'typescript';
  if (syntaxOnly) {
    assert.doesNotThrow(() => transformSync(block.code, { loader: typescript ? 'ts' : 'js', format: 'esm' }), where);
    return;
  }
  const file = join(dir, `block-${block.line}.${typescript ? 'mts' : 'mjs'}`);
  writeFileSync(file, block.code);
  const result = spawnSync(process.execPath, typescript ? ['--import', TSX, file] : [file], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  expectSuccess(where, result, block.output);
}

for (const page of PAGES) {
  describe(page, () => {
    const blocks = readBlocks(join(ROOT, page), page);
    // One project per page: its blocks run in order and share files, as a reader following along would.
    let env: ReturnType<typeof project> | undefined;
    for (const block of blocks) {
      if (block.lang === 'json' && !block.tags.includes('syntax')) {
        it(`${block.line}: json parses`, () =>
          assert.doesNotThrow(() => JSON.parse(block.code), `${page}:${block.line}`));
        continue;
      }
      if (!SHELL.has(block.lang) && !SCRIPT.has(block.lang)) continue;
      it(`${block.line}: ${block.lang}${block.tags.length ? ` ${block.tags.join(' ')}` : ''}`, () => {
        env ??= project();
        run(block, env.dir, env.env);
      });
    }
    it('links to pages that exist', () => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        assert.ok(
          existsSync(join(ROOT, dirname(page), target as string)),
          `${page} links to ${target}, which does not exist`,
        );
      }
    });
    it('cleans up', () => env?.cleanup());
  });
}

describe('the block reader', () => {
  it('attaches a ```text output block and matches ... lines', () => {
    const tree = tempTree({ 'p.md': '```sh\necho a\n```\n\n```text output\na\n...\nz\n```\n```sh syntax\nfi\n```\n' });
    try {
      const blocks = readBlocks(join(tree.dir, 'p.md'), 'p.md');
      assert.deepEqual(
        blocks.map((b) => [b.lang, b.tags, b.output]),
        [
          ['sh', [], 'a\n...\nz\n'],
          ['sh', ['syntax'], undefined],
        ],
      );
      assert.ok(matchesOutput('a\nb\nc\nz\n', 'a\n...\nz\n'));
      assert.ok(matchesOutput('a\nz', 'a\n...\nz\n'));
      assert.ok(!matchesOutput('a\nb\n', 'a\n...\nz\n'));
      assert.ok(existsSync(tree.dir));
    } finally {
      tree.cleanup();
    }
  });
});

/** A block ran: it exited 0 and, when the page gives its output, printed exactly that. */
function expectSuccess(where: string, result: SpawnSyncReturns<string>, output: string | undefined): void {
  assert.equal(
    result.status,
    0,
    `${where} exited ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
  );
  if (output !== undefined)
    assert.ok(
      matchesOutput(result.stdout, output),
      `${where}: output differs\n--- expected\n${output}--- actual\n${result.stdout}`,
    );
}
