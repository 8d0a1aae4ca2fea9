// History stays bounded: a document with 100,000 revisions updates and reads as fast as a new one.
// The long history is laid down directly as segment files (writing 100,000 fsynced revisions
// through baton would take minutes); baton records the first real write after it as an
// `external` revision and from then on works with it like any history.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REVISIONS = 100_000;

function layHistory(dir, name) {
  const history = join(dir, '.baton', `${name}.history`);
  mkdirSync(history, { recursive: true });
  for (let start = 1; start <= REVISIONS; start += 1000) {
    const lines = [];
    for (let rev = start; rev < start + 1000 && rev <= REVISIONS; rev++) {
      const entry = {
        rev,
        time: new Date(0).toISOString(),
        op: { kind: 'update' },
        patch: [{ op: 'replace', path: '/counter', value: rev }],
        hash: 'synthetic',
      };
      if (rev % 100 === 1) entry.snapshot = { counter: rev };
      lines.push(JSON.stringify(entry));
    }
    writeFileSync(join(history, `${String(start).padStart(12, '0')}.jsonl`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(dir, name), `${JSON.stringify({ counter: REVISIONS }, null, 2)}\n`);
}

export default async function history(lib) {
  const dir = lib.tempDir();
  const env = lib.benchEnv({ BATON_ROOT: dir });
  const node = process.execPath;
  layHistory(dir, 'long.json');
  spawnSync(node, [lib.BATON, 'init', join(dir, 'fresh.json'), '--argjson', 'counter', '0'], { env, cwd: dir });
  const first = spawnSync(node, [lib.BATON, 'update', join(dir, 'long.json'), '.counter += 1'], {
    env,
    cwd: dir,
    encoding: 'utf8',
  });
  if (first.status !== 0) throw new Error(`update on the long history failed: ${first.stderr}`);
  const segments = readdirSync(join(dir, '.baton', 'long.json.history')).length;
  const time = (file, args) =>
    lib.timeProcess([node, lib.BATON, ...args.slice(0, 1), join(dir, file), ...args.slice(1)], { cwd: dir, env });
  return [
    {
      name: `update with ${REVISIONS.toLocaleString('en')} revisions of history`,
      baton: time('long.json', ['update', '.counter += 1']),
      reference: time('fresh.json', ['update', '.counter += 1']),
      unit: 'ms',
      note: `ratio vs a new document; ${segments} segments kept of 101`,
    },
    {
      name: `get with ${REVISIONS.toLocaleString('en')} revisions of history`,
      baton: time('long.json', ['get', '.counter']),
      reference: time('fresh.json', ['get', '.counter']),
      unit: 'ms',
      note: 'ratio vs a new document',
    },
    {
      name: 'show a revision 20 patches past its snapshot',
      baton: time('long.json', ['show', '--rev', String(REVISIONS + 21)]),
      reference: null,
      unit: 'ms',
      note: 'replay reads one segment',
    },
  ];
}
