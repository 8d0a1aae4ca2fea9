// Lines and branches covered per folder of src/, from the json-summary c8 writes (npm run coverage).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const summary = JSON.parse(readFileSync(join(root, 'coverage', 'coverage-summary.json'), 'utf8'));
const folders = new Map();
for (const [file, figures] of Object.entries(summary)) {
  const folder = dirname(relative(root, file));
  // Only src/: the totals c8 prints also count the few built files that have no source map.
  if (file === 'total' || !folder.startsWith('src')) continue;
  const sum = folders.get(folder) ?? { files: 0, lines: [0, 0], branches: [0, 0] };
  sum.files += 1;
  for (const kind of ['lines', 'branches']) {
    sum[kind][0] += figures[kind].covered;
    sum[kind][1] += figures[kind].total;
  }
  folders.set(folder, sum);
}
const pct = ([covered, total]) => (total ? ((100 * covered) / total).toFixed(1) : '-').padStart(6);
const count = ([covered, total]) => `${covered}/${total}`.padStart(12);
const width = Math.max(6, ...[...folders.keys()].map((f) => f.length));
console.log(`${'folder'.padEnd(width)}  files   lines %        lines  branches %     branches`);
const all = { files: 0, lines: [0, 0], branches: [0, 0] };
for (const sum of folders.values()) {
  all.files += sum.files;
  for (const kind of ['lines', 'branches']) for (const i of [0, 1]) all[kind][i] += sum[kind][i];
}
for (const [folder, sum] of [...folders, ['src (all)', all]].sort(([a], [b]) =>
  a === 'src (all)' ? 1 : b === 'src (all)' ? -1 : a.localeCompare(b),
))
  console.log(
    `${folder.padEnd(width)}  ${String(sum.files).padStart(5)}  ${pct(sum.lines)}  ${count(sum.lines)}  ${pct(sum.branches).padStart(10)}  ${count(sum.branches)}`,
  );
