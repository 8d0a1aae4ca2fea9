// Contention: 200 update processes started at once on one document, at default settings (the
// 30 s lock wait), against the bash+flock reference doing the same. Lost updates and non-zero
// exits (exit 6: lock timeout) are counted, not just the wall time. The two run back to back on a
// shared machine: compare them within one run, not across runs.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const WRITERS = 200;

export default async function contention(lib) {
  const dir = lib.tempDir();
  const env = lib.benchEnv({ BATON_ROOT: dir });
  const node = process.execPath;
  const doc = join(dir, 'c.json');
  const ref = join(dir, 'ref.json');
  const counter = (file) => JSON.parse(readFileSync(file, 'utf8')).counter;
  const init = spawnSync(node, [lib.BATON, 'init', doc, '--argjson', 'counter', '0'], { env, cwd: dir });
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);

  const baton = await lib.timeParallel(() => [node, lib.BATON, 'update', doc, '.counter += 1'], WRITERS, {
    cwd: dir,
    env,
  });
  const failed = baton.codes.filter((code) => code !== 0).length;
  const lost = WRITERS - counter(doc);
  let reference = null;
  if (lib.hasReference()) {
    writeFileSync(ref, JSON.stringify({ counter: 0 }));
    reference = await lib.timeParallel(() => ['bash', lib.REFERENCE, 'update', ref, '.counter += 1'], WRITERS, {
      cwd: dir,
      env,
    });
    reference.lost = WRITERS - counter(ref);
    reference.failed = reference.codes.filter((code) => code !== 0).length;
  }
  rmSync(dir, { recursive: true, force: true });
  return [
    {
      name: `${WRITERS} parallel update processes, one document (wall time)`,
      baton: baton.ms,
      reference: reference?.ms ?? null,
      unit: 'ms',
      note: `lost: baton ${lost}, non-zero exits: baton ${failed}${reference ? `; reference lost ${reference.lost}, non-zero ${reference.failed}` : ''}`,
    },
  ];
}
