import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { batonInProcess as baton } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

describe('baton doctor', () => {
  it('passes a healthy tree and fails each kind of damage with a fix', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    const task = '.claude/state/current-task.json';
    await baton(['init', task, '--schema', 'eneo-task', '--arg', 'slug', 'demo'], { cwd: dir });
    await baton(['update', task, '.tdd_phase = "GREEN"'], { cwd: dir });
    const healthy = await baton(['doctor'], { cwd: dir });
    assert.equal(healthy.code, 0, healthy.stdout);
    assert.match(healthy.stdout, /^ok +\.claude\/state\/current-task\.json parses/m);

    writeFileSync(join(dir, '.claude/state/phase'), 'RED\n');
    writeFileSync(join(dir, '.claude/state/.current-task.json.999999.abcdefabcdef.tmp'), '{"half":');
    writeFileSync(
      join(dir, '.claude/state/.baton/current-task.json.lock'),
      `999999\n${hostname()}\n${Date.now()}\ntok\n1\n`,
    );
    const sick = await baton(['doctor', '--json'], { cwd: dir });
    assert.equal(sick.code, 1);
    const report = JSON.parse(sick.stdout);
    const failed = report.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { check: string }) => c.check);
    assert.equal(failed.length, 3, failed.join('\n'));
    assert.ok(failed.some((c: string) => c.includes('mirror phase')));
    assert.ok(failed.some((c: string) => c.includes('lock is stale')));
    assert.ok(failed.some((c: string) => c.includes('leftover temp file')));

    const repaired = await baton(['doctor', '--repair'], { cwd: dir });
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.equal(readFileSync(join(dir, '.claude/state/phase'), 'utf8'), 'GREEN\n');
  });

  it('--repair moves a corrupt document aside and restores the last good revision', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'd.json', '--argjson', 'n', '1'], { cwd: dir });
    await baton(['update', 'd.json', '.n = 2'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), '{"n": 2,, garbage');
    const sick = await baton(['doctor'], { cwd: dir });
    assert.equal(sick.code, 1);
    assert.match(sick.stdout, /^fail +d\.json parses +baton doctor --repair/m);
    const fixed = await baton(['doctor', '--repair'], { cwd: dir });
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')), { n: 2 });
    const aside = readdirSync(dir).filter((name) => name.startsWith('d.json.corrupt-'));
    assert.equal(aside.length, 1);
    assert.equal(readFileSync(join(dir, aside[0]!), 'utf8'), '{"n": 2,, garbage');
    assert.equal((await baton(['update', 'd.json', '.n += 1'], { cwd: dir })).code, 0);
  });

  it('a history line that is not JSON is reported, and --repair sets it aside so writes work again', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 'h.json', '--argjson', 'n', '1'], { cwd: dir });
    await baton(['set', 'h.json', 'n', '2', '--json'], { cwd: dir });
    const segment = join(dir, '.baton', 'h.json.history', '000000000001.jsonl');
    appendFileSync(segment, 'garbage{\n');
    const blocked = await baton(['set', 'h.json', 'n', '3', '--json'], { cwd: dir });
    assert.equal(blocked.code, 7);
    assert.match(blocked.stderr, /doctor --repair/);
    const report = await baton(['doctor'], { cwd: dir });
    assert.equal(report.code, 1);
    assert.match(report.stdout, /^fail +h\.json history 000000000001\.jsonl is readable/m);
    assert.equal((await baton(['doctor', '--repair'], { cwd: dir })).code, 0);
    const kept = readdirSync(join(dir, '.baton', 'h.json.history')).filter((name) => name.includes('.corrupt-'));
    assert.equal(kept.length, 1);
    assert.match(readFileSync(join(dir, '.baton', 'h.json.history', kept[0]!), 'utf8'), /garbage\{/);
    assert.equal((await baton(['set', 'h.json', 'n', '3', '--json'], { cwd: dir })).code, 0);
    assert.deepEqual(JSON.parse((await baton(['show', 'h.json', '--rev', '2'], { cwd: dir })).stdout), { n: 2 });
  });

  it('unreadable metadata never drops the schema: writes refuse, --repair rebuilds it from history', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 't.json', '--schema', 'eneo-task', '--arg', 'slug', 'x'], { cwd: dir });
    writeFileSync(join(dir, '.baton', 't.json.meta.json'), '{oops');
    const refused = await baton(['update', 't.json', '.tdd_phase = "BLUE"'], { cwd: dir });
    assert.equal(refused.code, 7);
    assert.match(refused.stderr, /metadata .* doctor --repair/);
    assert.match(
      (await baton(['doctor'], { cwd: dir })).stdout,
      /^fail +t\.json metadata is readable +baton doctor --repair rewrites it \(schema eneo-task/m,
    );
    assert.equal((await baton(['doctor', '--repair'], { cwd: dir })).code, 0);
    assert.equal((await baton(['update', 't.json', '.tdd_phase = "BLUE"'], { cwd: dir })).code, 3);
  });

  it('reports a schema violation written by hand and history that no longer matches', async (t) => {
    const { dir, cleanup } = tempTree();
    t.after(cleanup);
    await baton(['init', 't.json', '--schema', 'eneo-task', '--arg', 'slug', 'x'], { cwd: dir });
    const doc = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8'));
    writeFileSync(join(dir, 't.json'), JSON.stringify({ ...doc, wave_status: [] }, null, 2) + '\n');
    const result = await baton(['doctor', '--json'], { cwd: dir });
    const failed = JSON.parse(result.stdout).checks.filter((c: { ok: boolean }) => !c.ok);
    assert.equal(result.code, 1);
    assert.ok(
      failed.some(
        (c: { check: string; fix: string }) =>
          c.check.includes('matches schema eneo-task') && c.fix.includes('wave_status'),
      ),
    );
    assert.ok(failed.some((c: { check: string }) => c.check.includes('history replays')));
    assert.equal(existsSync(join(dir, 't.json')), true);
    mkdirSync(join(dir, 'empty'));
    assert.equal((await baton(['doctor', 'empty'], { cwd: dir })).code, 0);
  });
});
