/**
 * node:os, loaded on first use, not when a module that may need it loads: loading it costs a
 * process 0.2-0.4 ms, and `baton get` never calls it (the lock's hostname is a write's, the temp
 * folder's tmpdir a code-cache miss's). process.getBuiltinModule exists from Node 20.16; before
 * it (the package allows 20.0), a require made here loads it (node:module is loaded at every
 * start, so importing it costs nothing).
 */
import { createRequire } from 'node:module';

type Os = typeof import('node:os');
let os: Os | undefined;

function load(): Os {
  return (os ??=
    (process.getBuiltinModule as ((id: 'node:os') => Os) | undefined)?.('node:os') ??
    (createRequire('/')('node:os') as Os));
}

export const hostname = (): string => load().hostname();
export const tmpdir = (): string => load().tmpdir();
