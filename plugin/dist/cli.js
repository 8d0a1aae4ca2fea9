'use strict';
// Checked in syntax any Node parses: the bundles need Node 20 or newer.
var major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write('baton needs Node 20 or newer, and this is Node ' + process.version + ': install Node 20+ (or put it first on PATH)\n');
  process.exit(1);
}
require(__dirname + '/entry.js');
