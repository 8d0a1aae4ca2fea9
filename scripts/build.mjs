// Builds the CLI and the library into dist/ as ESM with code splitting: every command and hook
// handler is its own chunk, loaded only when it runs (a hook pays for what it uses, nothing more).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { compileBuiltinSchemas } from './compile-schemas.mjs';

rmSync('dist', { recursive: true, force: true });
await compileBuiltinSchemas();
await build({
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // ESM bundles of CJS libraries (ajv) need a require; this gives them one.
  banner: { js: "import { createRequire as __batonRequire } from 'node:module'; const require = __batonRequire(import.meta.url);" },
});

// The Claude Code plugin ships a copy of the CLI bundle (plugin/dist); see scripts/build-plugin.mjs.
await import('./build-plugin.mjs');
