#!/usr/bin/env node
// npm run bench: every suite in bench/suites/, measured side by side with the bash+jq reference
// in one run, printed as ratios (baton / reference; below 1.0 means baton is faster).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from './lib.mjs';

const only = process.argv[2];
const suites = readdirSync(join(lib.ROOT, 'bench', 'suites'))
  .filter((f) => f.endsWith('.mjs') && (!only || f.startsWith(only)))
  .sort();
console.log(
  `baton bench on node ${process.version}, ${new Date().toISOString()} (NODE_EXTRA_CA_CERTS unset for every timed process)`,
);
console.log(
  `reference: ${lib.REFERENCE}${lib.hasReference() ? '' : ' (not found: ratios skipped; set BATON_BENCH_REFERENCE to the bash+jq reference script)'}\n`,
);
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('benchmark', 58)}${pad('baton', 12)}${pad('reference', 12)}ratio  note`);
for (const file of suites) {
  const rows = await (await import(join(lib.ROOT, 'bench', 'suites', file))).default(lib);
  for (const row of rows) {
    const ratio = row.reference ? (row.baton / row.reference).toFixed(2) : '  - ';
    const fmt = (v) => (v == null ? '-' : `${v.toFixed(1)} ${row.unit}`);
    // CPU time (user + system of the child) beside the wall time, where the suite measured it.
    const cpu = row.cpu
      ? `CPU ${row.cpu.map((v) => (v == null ? '-' : v.toFixed(1))).join(' / ')} ms${row.cpu[1] ? ` (${(row.cpu[0] / row.cpu[1]).toFixed(2)})` : ''}; `
      : '';
    console.log(
      `${pad(row.name, 58)}${pad(fmt(row.baton), 12)}${pad(fmt(row.reference), 12)}${pad(ratio, 7)}${cpu}${row.note ?? ''}`,
    );
  }
}
