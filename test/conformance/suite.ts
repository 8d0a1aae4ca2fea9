/**
 * The behaviour every Store must show, run against each backend listed in stores.ts; a new
 * backend is done when this suite passes on it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildChange } from '../../src/doc/commit.js';
import { Doc } from '../../src/doc/doc.js';
import { isBatonError, type ErrorCode } from '../../src/core/errors.js';
import type { Store } from '../../src/stores/store.js';

export interface StoreHarness {
  store: Store;
  /** Schema refs resolve against this folder (user schema files live there). */
  root: string;
  cleanup(): Promise<void>;
}

async function rejects(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isBatonError(error), `expected BatonError, got ${String(error)}`);
    assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    return true;
  });
}

export function runConformance(name: string, make: () => Promise<StoreHarness>): void {
  describe(`${name} store conformance`, () => {
    let harness: StoreHarness;
    let n = 0;
    const doc = (writer?: string, now?: () => Date) =>
      new Doc(harness.store, `docs/d${++n}.json`, harness.root, {
        ...(writer ? { writer } : {}),
        ...(now ? { now } : {}),
      });
    const same = (d: Doc, writer?: string) => new Doc(harness.store, d.key, harness.root, writer ? { writer } : {});
    before(async () => {
      harness = await make();
    });
    after(async () => harness.cleanup());

    it('init creates from defaults plus values and refuses an existing doc without force', async () => {
      const d = doc();
      await d.init({ slug: 'x', lane: 'deep', bracket: 4 }, { schema: 'eneo-task' });
      const body = (await d.read()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), [
        'slug',
        'lane',
        'bracket',
        'tenancy_impact',
        'audit_impact',
        'phase',
        'phase_total',
        'phase_name',
        'tdd_phase',
        'wave',
        'wave_total',
        'wave_status',
        'active_agents',
        'status',
        'started_at',
        'last_update',
        'next_hint',
        'prd_issue',
        'last_pr',
      ]);
      assert.equal(body.tdd_phase, 'FREE');
      assert.match(String(body.started_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      await rejects(d.init({ slug: 'y' }, { schema: 'eneo-task' }), 'exists');
      await d.init({ slug: 'y', lane: 'fast' }, { schema: 'eneo-task', force: true });
      assert.equal(((await d.read()) as Record<string, unknown>).slug, 'y');
    });

    it('get evaluates jq and returns nothing for a missing doc', async () => {
      const d = doc();
      assert.deepEqual(await d.get('.a'), []);
      await d.init({ a: { b: [1, 2] } });
      assert.deepEqual(await d.get('.a.b[]'), [1, 2]);
      assert.deepEqual(await d.get('.a.b | length'), [2]);
      assert.deepEqual(await d.get('$x', { x: 'y' }), ['y']);
    });

    it('update applies jq with named args as data, never as code', async () => {
      const d = doc();
      await d.init({ n: 0 });
      await d.update('.n += 1 | .note = $t', { t: '") | .n = 99 | ("' });
      assert.deepEqual(await d.read(), { n: 1, note: '") | .n = 99 | ("' });
    });

    it('update refuses anything but exactly one object and writes nothing', async () => {
      const d = doc();
      await d.init({ n: 1 });
      await rejects(d.update('empty'), 'jq_result');
      await rejects(d.update('.n = (1, 2)'), 'jq_result');
      await rejects(d.update('[.]'), 'jq_result');
      await rejects(d.update('.n +'), 'jq_syntax');
      await rejects(d.update('.n + "x"'), 'jq_runtime');
      assert.deepEqual(await d.read(), { n: 1 });
      assert.equal((await d.history()).length, 1);
    });

    it('update on a missing document is not_found, or a no-op with ifExists', async () => {
      const d = doc();
      await rejects(d.update('.a = 1'), 'not_found');
      const result = await d.update('.a = 1', {}, { ifExists: true });
      assert.equal(result.doc, null);
      assert.equal(await d.read(), undefined);
    });

    it('an update that changes nothing records no revision', async () => {
      const d = doc();
      await d.init({ a: 1 });
      const result = await d.update('.a = 1');
      await d.set('a', 1);
      assert.equal(result.rev, 1);
      assert.equal((await d.history()).length, 1);
      await d.update('.a = 2');
      assert.equal((await d.history()).length, 2);
    });

    it('snapshot records the document unchanged as a revision of its own', async () => {
      const d = doc('host');
      assert.equal(await d.snapshot('pre-compact'), undefined);
      await d.init({ a: 1 });
      const taken = await d.snapshot('pre-compact');
      assert.equal(taken?.rev, 2);
      const [last] = await d.history({ limit: 1 });
      assert.deepEqual(
        [last?.op.kind, last?.op.note, last?.writer, last?.patch],
        ['snapshot', 'pre-compact', 'host', []],
      );
      assert.deepEqual((await d.show(2)).doc, { a: 1 });
      await d.update('.a = 2');
      assert.deepEqual((await d.show(2)).doc, { a: 1 });
    });

    it('a TypeScript function can be the update', async () => {
      const d = doc();
      await d.init({ list: [] });
      await d.update((body) => ({ ...body, list: [...(body.list as string[]), 'a'] }));
      assert.deepEqual(await d.read(), { list: ['a'] });
    });

    it('stamps the schema stamp field last, so an expression cannot fake it', async () => {
      const clock = new Date('2026-01-02T03:04:05.678Z');
      const d = doc(undefined, () => clock);
      await d.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
      await d.update('.last_update = "1999-01-01T00:00:00Z" | .next_hint = $__now');
      const body = (await d.read()) as Record<string, unknown>;
      assert.equal(body.last_update, '2026-01-02T03:04:05Z');
      assert.equal(body.next_hint, '2026-01-02T03:04:05Z');
    });

    it('schema violations refuse the write and name the field, value and what is allowed', async () => {
      const d = doc();
      await d.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
      await assert.rejects(d.update('.tdd_phase = "BLUE"'), (error: unknown) => {
        assert.ok(isBatonError(error, 'invalid'));
        assert.equal(error.issues[0]?.path, 'tdd_phase');
        assert.match(error.message, /"BLUE".*RED.*GREEN/);
        return true;
      });
      await rejects(d.update('.wave_status = []'), 'invalid');
      await rejects(d.update('.slug = "other"'), 'invalid');
      await rejects(d.update('.started_at = "2020-01-01T00:00:00Z"'), 'invalid');
      assert.equal(((await d.read()) as Record<string, unknown>).tdd_phase, 'FREE');
    });

    it('coerces digit strings in integer fields and says so', async () => {
      const d = doc();
      await d.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
      const result = await d.update('.last_pr = $pr', { pr: '5678' });
      assert.equal(((await d.read()) as Record<string, unknown>).last_pr, 5678);
      assert.match(result.notes[0] ?? '', /stored last_pr as a number/);
    });

    it('refuses values over the size limit', async () => {
      const d = doc();
      await d.init({ a: 1 });
      await rejects(d.update('.blob = $b', { b: 'x'.repeat(65 * 1024) }), 'too_large');
      assert.deepEqual(await d.read(), { a: 1 });
    });

    it('set, append and consume work on dotted paths', async () => {
      const d = doc();
      await d.init({});
      await d.set('phases.3-impl.status', 'done');
      await d.append('phases.3-impl.evidence', 'a.md');
      await d.append('phases.3-impl.evidence', 'b.md');
      await d.set('next_hint', '/go');
      assert.deepEqual(await d.read(), {
        phases: { '3-impl': { status: 'done', evidence: ['a.md', 'b.md'] } },
        next_hint: '/go',
      });
      assert.equal(await d.consume('next_hint'), '/go');
      assert.equal(await d.consume('next_hint'), null);
      assert.equal(((await d.read()) as Record<string, unknown>).next_hint, null);
      await d.set('title', 'text');
      await rejects(d.append('title.x', 1), 'invalid');
      await rejects(d.append('phases.3-impl.status', 'x'), 'invalid');
      await rejects(d.set('', 'x'), 'usage');
      await rejects(d.set('a..b', 'x'), 'usage');
    });

    it('records history with writer, operation and patch; show and revert', async () => {
      const d = doc('alice');
      await d.init({ n: 0 });
      await d.update('.n += 1');
      await same(d, 'bob').set('who', 'bob');
      const history = await d.history();
      assert.deepEqual(
        history.map((e) => [e.rev, e.writer, e.op.kind]),
        [
          [3, 'bob', 'set'],
          [2, 'alice', 'update'],
          [1, 'alice', 'init'],
        ],
      );
      assert.deepEqual(history[1]?.patch, [{ op: 'replace', path: '/n', value: 1 }]);
      assert.deepEqual((await d.show(2)).doc, { n: 1 });
      await d.revert(1);
      assert.deepEqual(await d.read(), { n: 0 });
      assert.equal((await d.history({ limit: 1 }))[0]?.op.kind, 'revert');
      await rejects(d.show(99), 'not_found');
    });

    it('lists the documents it holds, sorted, with when each changed, and leaves a cleared one out', async () => {
      const at = (key: string) => new Doc(harness.store, key, harness.root);
      await at('listed/b.json').init({ b: 1 });
      await at('listed/a.json').init({ a: 1 });
      await at('listed/deep/c.json').init({ c: 1 });
      await at('listed/gone.json').init({ g: 1 });
      await at('listed/gone.json').clear();
      const listing = (await harness.store.list()).filter((entry) => entry.key.startsWith('listed/'));
      assert.deepEqual(
        listing.map((entry) => entry.key),
        ['listed/a.json', 'listed/b.json', 'listed/deep/c.json'],
      );
      for (const entry of listing) assert.equal(Number.isNaN(Date.parse(entry.time)), false, entry.time);
    });

    it('clear deletes the document but keeps its history', async () => {
      const d = doc();
      await d.init({ a: 1 });
      await d.clear();
      assert.equal(await d.read(), undefined);
      const [last] = await d.history({ limit: 1 });
      assert.equal(last?.op.kind, 'clear');
      assert.equal((await d.show(last.rev)).doc, null);
      await d.revert(1);
      assert.deepEqual(await d.read(), { a: 1 });
    });

    it('enforces owners, immutables and who may create or delete', async () => {
      const schema = 'owned.schema.json';
      const d = doc('agent-1');
      await rejects(d.init({ phase: 'RED' }, { schema }), 'forbidden');
      await same(d, 'orchestrator').init({ phase: 'RED', notes: [] }, { schema });
      await rejects(d.update('.phase = "GREEN"'), 'forbidden');
      await d.update('.notes += ["ok"]');
      await same(d, 'orchestrator').update('.phase = "GREEN"');
      await rejects(d.clear(), 'forbidden');
      await same(d, 'orchestrator').clear();
    });

    it('serialises concurrent updates from one process without losing any', async () => {
      const d = doc();
      await d.init({ counter: 0 });
      await Promise.all(Array.from({ length: 40 }, () => same(d).update('.counter += 1')));
      assert.deepEqual(await d.read(), { counter: 40 });
      assert.equal((await d.history({ limit: 100 })).length, 41);
    });

    it('replays history across snapshot boundaries', async () => {
      const d = doc();
      await d.init({ i: 0 });
      for (let i = 1; i <= 130; i++) await d.update('.i = $i | .["k\\($i % 7)"] = $i', { i });
      assert.deepEqual((await d.show(131)).doc, await d.read());
      const at = (await d.show(105)).doc as Record<string, number>;
      assert.equal(at.i, 104);
    });

    it('persists the entry the engine built exactly, and the text it hashed', async () => {
      const d = doc('alice', () => new Date('2030-05-06T07:08:09.010Z'));
      await d.init({ a: 1 });
      await d.update('.a = 2');
      const [entry] = await d.history({ limit: 1 });
      assert.deepEqual(entry, {
        rev: 2,
        time: '2030-05-06T07:08:09.010Z',
        writer: 'alice',
        op: { kind: 'update', expr: '.a = 2' },
        patch: [{ op: 'replace', path: '/a', value: 2 }],
        hash: buildChange({ rev: 1 }, { a: 2 }, entry!, new Date()).entry.hash,
      });
      const read = await harness.store.read(d.key);
      assert.equal(read.state === 'ok' && read.text, buildChange({ rev: 1 }, { a: 2 }, entry, new Date()).text);
    });

    it('refuses a commit whose revision is not the current one + 1, and writes nothing', async () => {
      const d = doc();
      await d.init({ a: 1 });
      const draft = { op: { kind: 'update' as const }, patch: [] };
      for (const rev of [0, 2]) {
        let ran = false;
        await rejects(
          harness.store.transact(d.key, () => ({
            result: undefined,
            commit: buildChange({ rev }, { a: 9 }, draft, new Date()),
            committed: () => (ran = true),
          })),
          'lock_lost',
        );
        assert.equal(ran, false);
      }
      assert.deepEqual(await d.read(), { a: 1 });
      assert.equal((await d.history()).length, 1);
    });

    it('runs the committed step after the commit, once, with the new document in place', async () => {
      const d = doc();
      await d.init({ a: 1 });
      const seen: unknown[] = [];
      await harness.store.transact(d.key, (current) => ({
        result: undefined,
        commit: buildChange(current, { a: 2 }, { op: { kind: 'update' }, patch: [] }, new Date()),
        committed: () => seen.push(harness.store.read(d.key)),
      }));
      assert.equal(seen.length, 1);
      const read = await seen[0];
      assert.deepEqual(read && typeof read === 'object' && 'doc' in read ? read.doc : undefined, { a: 2 });
    });

    it('writes the mirror files a schema asks for on this machine, whatever the store', async () => {
      const d = doc();
      await d.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
      const mirror = join(harness.root, 'docs', 'phase');
      assert.equal(readFileSync(mirror, 'utf8'), 'FREE\n');
      await d.update('.tdd_phase = "RED"');
      assert.equal(readFileSync(mirror, 'utf8'), 'RED\n');
    });

    it('leaves a mirror that already says what it should as it is, and restores one that does not', async () => {
      const d = doc();
      await d.init({ slug: 'x', lane: 'fast' }, { schema: 'eneo-task' });
      const mirror = join(harness.root, 'docs', 'phase');
      const before = statSync(mirror);
      // A write that leaves the mirrored field alone does not replace the file (same inode, same mtime).
      await d.update('.next_hint = "later"');
      const after = statSync(mirror);
      assert.equal(after.ino, before.ino);
      assert.equal(after.mtimeMs, before.mtimeMs);
      assert.equal(readFileSync(mirror, 'utf8'), 'FREE\n');
      // Edited by hand, it is written again by the next write, whatever that write changes.
      writeFileSync(mirror, 'GREEN\n');
      await d.update('.next_hint = "sooner"');
      assert.equal(readFileSync(mirror, 'utf8'), 'FREE\n');
      writeFileSync(mirror, 'FREE\nand more\n');
      await d.update('.next_hint = "now"');
      assert.equal(readFileSync(mirror, 'utf8'), 'FREE\n');
    });

    it('watch reports commits', async () => {
      const d = doc();
      await d.init({ v: 0 });
      const seen: unknown[] = [];
      const stop = d.watch((body) => seen.push(body));
      await d.update('.v = 1');
      await waitFor(() => seen.some((body) => (body as { v?: number } | undefined)?.v === 1));
      stop();
    });
  });
}

/** Waits until `check` holds; the bound is only there to end a broken run, so it is wide. */
async function waitFor(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
