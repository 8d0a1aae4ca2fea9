#!/usr/bin/env node
// CommonJS on purpose: it starts faster than an ES module (see scripts/build.mjs).
require('../dist/cli.js');
