// Copies the freshly built CLI bundle into plugin/dist/, so the plugin's hooks run
// `node "${CLAUDE_PLUGIN_ROOT}/dist/cli.js"` with nothing installed at hook time. Run at the end of
// scripts/build.mjs (and so by `npm ci` through `prepare`): plugin/dist is built, not committed,
// because a committed bundle goes stale the moment src/ changes. Like dist/, it switches to a
// complete copy atomically (scripts/switch-build.mjs): hooks run from it during a rebuild.
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { switchTo } from './switch-build.mjs';

export function buildPlugin(from, id) {
  const dist = join('plugin', 'dist');
  const to = join(dist, 'builds', id);
  mkdirSync(to, { recursive: true });
  cpSync(join(from, 'cli.js'), join(to, 'cli.js'));
  for (const folder of ['commands', 'lazy']) {
    mkdirSync(join(to, folder), { recursive: true });
    for (const file of readdirSync(join(from, folder))) {
      if (file.endsWith('.js')) cpSync(join(from, folder, file), join(to, folder, file));
    }
  }
  // The plugin is copied into Claude Code's cache, away from this repo's package.json: this file
  // tells Node the bundles there are CommonJS.
  writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
  switchTo(dist, id, { 'cli.js': `require('./builds/${id}/cli.js');\n` });
}
