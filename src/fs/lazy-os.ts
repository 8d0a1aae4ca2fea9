/**
 * node:os, loaded on first use, not when a module that may need it loads: loading it costs a
 * process 0.2-0.4 ms, and `baton get` never calls it (the lock's hostname is a write's, the temp
 * folder's tmpdir a code-cache miss's). process.getBuiltinModule exists from Node 20.16; before
 * it (the package allows 20.0), `require` loads it: the CLI's bundles are CommonJS, and the
 * library's ES module build defines one (scripts/build.mjs). Not node:module's createRequire: a
 * CLI process that runs a file has not loaded node:module, and loading it costs ~0.5 ms.
 */
declare const require: NodeJS.Require;

type Os = typeof import('node:os');
let os: Os | undefined;

function load(): Os {
  return (os ??=
    (process.getBuiltinModule as ((id: 'node:os') => Os) | undefined)?.('node:os') ?? (require('node:os') as Os));
}

export const hostname = (): string => load().hostname();
export const tmpdir = (): string => load().tmpdir();
