// Module hooks (node:module register) for in-process tests: `import x from './a.css' with { type:
// 'text' }`, which esbuild inlines into the bundles (the dashboard's page), gives the file's text
// here too, so a test can import src/ui/ui-server.ts without a build.
import { readFile } from 'node:fs/promises';

const MARK = '?baton-text';

export async function resolve(specifier, context, next) {
  if (context.importAttributes?.type !== 'text') return next(specifier, context);
  const resolved = await next(specifier, { ...context, importAttributes: {} });
  return { ...resolved, url: `${resolved.url}${MARK}`, importAttributes: {}, shortCircuit: true };
}

export async function load(url, context, next) {
  if (!url.endsWith(MARK)) return next(url, context);
  const text = await readFile(new URL(url.slice(0, -MARK.length)), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
