/**
 * node:os, loaded on first use, not when a module that may need it loads: loading it costs a
 * process 0.2-0.4 ms, and `baton get` never calls it (the temp folder's tmpdir is a code-cache
 * miss's; the lock's hostname, a write's, comes through Node's os binding where it may). process.getBuiltinModule exists from Node 20.16; before
 * it (the package allows 20.0), `require` loads it: the CLI's bundles are CommonJS, and the
 * library's ES module build defines one (scripts/build.mjs). Not node:module's createRequire: a
 * CLI process that runs a file has not loaded node:module, and loading it costs ~0.5 ms.
 */
import { nodeBinding } from './node-binding.js';

declare const require: NodeJS.Require;

type Os = typeof import('node:os');
let os: Os | undefined;

function load(): Os {
  return (os ??=
    (process.getBuiltinModule as ((id: 'node:os') => Os) | undefined)?.('node:os') ?? (require('node:os') as Os));
}

/**
 * The host's name, for the lock's record (every write): through Node's os binding, which answers
 * it without node:os, whose load in a write process cost 2.0 M instructions (its module compiled,
 * and a code cache made for it) against 0.3 M (callgrind, docs/benchmarks.md). node:os where the
 * binding is refused (nodeBinding) or answers otherwise (another Node's binding): its hostname()
 * says the same, or throws the system error of a failed call.
 */
export function hostname(): string {
  let name: unknown;
  try {
    name = nodeBinding<{ getHostname?: (ctx: object) => unknown }>('os')?.getHostname?.({});
  } catch {
    // A binding that throws where Node 20's returned undefined and filled ctx: node:os says why.
  }
  return typeof name === 'string' && name !== '' ? name : load().hostname();
}

export const tmpdir = (): string => load().tmpdir();
