// Copies the freshly built CLI bundle into plugin/dist/, so the plugin's hooks run
// `node "${CLAUDE_PLUGIN_ROOT}/dist/cli.js"` with nothing installed at hook time. Run at the end of
// scripts/build.mjs (and so by `npm ci` through `prepare`): plugin/dist is built, not committed,
// because a committed bundle goes stale the moment src/ changes.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const from = 'dist';
const to = join('plugin', 'dist');
rmSync(to, { recursive: true, force: true });
mkdirSync(join(to, 'chunks'), { recursive: true });
cpSync(join(from, 'cli.js'), join(to, 'cli.js'));
for (const file of readdirSync(join(from, 'chunks'))) {
  if (file.endsWith('.js')) cpSync(join(from, 'chunks', file), join(to, 'chunks', file));
}
// The plugin is copied into Claude Code's cache, away from this repo's package.json: without
// this file Node would read the ESM bundle as CommonJS there.
writeFileSync(join(to, 'package.json'), '{ "type": "module" }\n');
