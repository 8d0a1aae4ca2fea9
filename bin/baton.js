#!/usr/bin/env node
// CommonJS on purpose: it starts faster than an ES module (see scripts/build.mjs). The entry by
// its absolute path: for a relative one Node also looks for the package's own "exports"
// (resolveExports), 0.4 M instructions of every command (docs/benchmarks.md).
require(__dirname + '/../dist/cli.js');
