// Goal workflow rows: the no-goal SessionStart hook (the common case, paid on every session start)
// against a bash script that reads stdin with jq and exits; `baton lint` on a 10 KB and a 1 MB
// state.md as processes; and the 1 MB lint in-process (goal: under 100 ms).
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PAYLOAD = JSON.stringify({ session_id: 'bench', source: 'startup', cwd: '/tmp', transcript_path: '' });

/** A drifted but realistic state.md of about `bytes` bytes: Now, Next, Decided, a long Done. */
function stateOfSize(bytes) {
  const head = `<!-- state: updated=${new Date().toISOString().slice(0, 19)}Z status=active -->\n# Goal: bench\n\n## Now\n- [sonnet] impl -> impl-1 -> briefs/impl-1.md -> reports/impl-1.md\n\n## Next\n- review #12 and #14\n<!-- end head -->\n\n## Queue\n- #21 follow-up\n## Decided\n- keep v1 (ana, 2026-01-02)\n## Done\n`;
  const lines = [];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const line = `- 2026-01-${String((i % 28) + 1).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:00Z item ${i} merged #${i} with a report pointer reports/r${i}.md\n`;
    lines.push(line);
    size += line.length;
  }
  return head + lines.join('');
}

/** The lint as a library, bundled from source on the fly (bench runs without tsx). */
async function loadLint(lib, dir) {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'lint-run.mjs');
  await build({
    entryPoints: [join(lib.ROOT, 'src', 'goal', 'lint', 'lint-file.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}

export default async function goal(lib) {
  const rows = [];
  const dir = lib.tempDir('baton-bench-goal-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = lib.benchEnv({ HOME: home });
  const node = process.execPath;

  const jqScript = join(dir, 'jq-hook.sh');
  writeFileSync(jqScript, '#!/usr/bin/env bash\njq -r .session_id >/dev/null\nexit 0\n');
  chmodSync(jqScript, 0o755);
  const jqTime = lib.timeProcess(['bash', jqScript], { env, input: PAYLOAD });
  rows.push({
    name: 'hook SessionStart --profile orchestrate, no goal',
    baton: lib.timeProcess([node, lib.BATON, 'hook', 'SessionStart', '--profile', 'orchestrate'], {
      env,
      input: PAYLOAD,
    }),
    reference: jqTime,
    unit: 'ms',
    note: 'reference: bash reading stdin with jq; goal <= 1.0x (a bare Node start alone is ~1.1x here)',
  });

  const plugin = join(dir, 'plugins', 'orchestrate', 'scripts');
  mkdirSync(plugin, { recursive: true });
  copyFileSync(join(lib.ROOT, 'compat', 'orchestrate', 'session-start.sh'), join(plugin, 'session-start.sh'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'baton'), `#!/bin/sh\nexec "${node}" "${lib.BATON}" "$@"\n`);
  chmodSync(join(bin, 'baton'), 0o755);
  rows.push({
    name: 'compat session-start.sh, no goal (bash + baton)',
    baton: lib.timeProcess(['bash', join(plugin, 'session-start.sh')], {
      env: { ...env, PATH: `${bin}:${env.PATH}` },
      input: PAYLOAD,
    }),
    reference: jqTime,
    unit: 'ms',
    note: 'the drop-in path: decided in bash before Node starts',
  });

  for (const [label, bytes] of [
    ['10 KB', 10_240],
    ['1 MB', 1_048_576],
  ]) {
    const file = join(dir, `state-${bytes}.md`);
    writeFileSync(file, stateOfSize(bytes));
    rows.push({
      name: `lint ${label} state.md (process)`,
      baton: lib.timeProcess([node, lib.BATON, 'lint', file], { env, runs: 10 }),
      reference: null,
      unit: 'ms',
      note: 'median of 10 processes',
    });
  }

  const { lintState } = await loadLint(lib, dir);
  const big = join(dir, 'state-1048576.md');
  const times = [];
  for (let i = 0; i < 13; i++) {
    const start = process.hrtime.bigint();
    lintState(big, { env: {}, goalTool: 'goal.sh' });
    if (i >= 3) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  rows.push({
    name: 'lint 1 MB state.md (in-process)',
    baton: times[Math.floor(times.length / 2)],
    reference: null,
    unit: 'ms',
    note: 'goal < 100 ms',
  });
  return rows;
}
