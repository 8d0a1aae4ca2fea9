// Copies the freshly built CLI bundle into plugin/dist/, so the plugin's hooks run
// `node "${CLAUDE_PLUGIN_ROOT}/dist/cli.js"` with nothing installed at hook time. Run at the end of
// scripts/build.mjs (and so by `npm ci` through `prepare`): plugin/dist is built, not committed,
// because a committed bundle goes stale the moment src/ changes.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const from = 'dist';
const to = join('plugin', 'dist');
rmSync(to, { recursive: true, force: true });
cpSync(join(from, 'cli.js'), join(to, 'cli.js'));
for (const folder of ['commands', 'parts', 'vendor']) {
  mkdirSync(join(to, folder), { recursive: true });
  for (const file of readdirSync(join(from, folder))) {
    if (file.endsWith('.js')) cpSync(join(from, folder, file), join(to, folder, file));
  }
}
// The plugin is copied into Claude Code's cache, away from this repo's package.json: this file
// tells Node the bundles there are CommonJS.
writeFileSync(join(to, 'package.json'), '{ "type": "commonjs" }\n');
