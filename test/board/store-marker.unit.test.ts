/**
 * The record that a project's board lives on its shared store (board/store-marker.ts): written and
 * removed inside the project only, never through a link planted at its name or its folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { boardOnStoreMarked, noteBoardOnStore, STORE_MARKER } from '../../src/board/store-marker.js';
import { tempTree } from '../helpers/fixtures.js';

test('the marker is written, seen and removed in the project', (t) => {
  const p = tempTree();
  t.after(p.cleanup);
  assert.equal(boardOnStoreMarked(p.dir), false);
  noteBoardOnStore(p.dir, true);
  assert.equal(boardOnStoreMarked(p.dir), true);
  assert.ok(lstatSync(join(p.dir, STORE_MARKER)).isFile());
  assert.equal(readFileSync(join(p.dir, '.baton/.gitignore'), 'utf8').includes('*'), true);
  noteBoardOnStore(p.dir, false);
  assert.equal(boardOnStoreMarked(p.dir), false);
});

test('a link planted at the marker counts as present and is never written through', (t) => {
  const p = tempTree({ 'outside/target': 'keep\n' });
  t.after(p.cleanup);
  mkdirSync(join(p.dir, 'project/.baton'), { recursive: true });
  const root = join(p.dir, 'project');
  symlinkSync(join(p.dir, 'outside/target'), join(root, STORE_MARKER));
  assert.equal(boardOnStoreMarked(root), true, 'fails closed');
  noteBoardOnStore(root, true);
  assert.equal(readFileSync(join(p.dir, 'outside/target'), 'utf8'), 'keep\n');
  // A dangling link is present too: whatever sits at the name keeps reservations in force.
  const other = join(p.dir, 'other');
  mkdirSync(join(other, '.baton'), { recursive: true });
  symlinkSync(join(p.dir, 'nowhere'), join(other, STORE_MARKER));
  assert.equal(boardOnStoreMarked(other), true);
  noteBoardOnStore(other, true);
  assert.equal(existsSync(join(p.dir, 'nowhere')), false, 'nothing created through the link');
});

test('a .baton folder that is a link out of the project: nothing is written outside', (t) => {
  const p = tempTree({ 'outside/keep': 'x' });
  t.after(p.cleanup);
  const root = join(p.dir, 'project');
  mkdirSync(root);
  symlinkSync(join(p.dir, 'outside'), join(root, '.baton'));
  noteBoardOnStore(root, true);
  assert.equal(existsSync(join(p.dir, 'outside/board-on-store')), false);
  writeFileSync(join(p.dir, 'outside/board-on-store'), '');
  noteBoardOnStore(root, false);
  assert.equal(existsSync(join(p.dir, 'outside/board-on-store')), true, 'not removed through the link either');
});
