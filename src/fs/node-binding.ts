/**
 * One of Node's own bindings (process.binding), for the CLI's hot paths that would otherwise load
 * a public module only to reach it: node:net for a pipe (cli/serve-client.ts), node:vm for a
 * script with a code cache (cli/bundle-loader.ts), node:os for the lock's hostname (lazy-os.ts).
 * Undefined where process.binding() would warn (DEP0111, under --pending-deprecation: stderr would
 * not be the command's) or refuses (the permission model): the caller then takes the public module.
 */
export function nodeBinding<T>(name: string): T | undefined {
  const options = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (options.includes('pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1') return undefined;
  try {
    return (process as unknown as { binding(name: string): T }).binding(name);
  } catch {
    return undefined;
  }
}
