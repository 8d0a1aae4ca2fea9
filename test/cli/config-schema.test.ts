/**
 * The doctor's harness rows on a config with `"$schema"`: they probe the phase sandbox, a process.
 * The config schema's other contracts run in-process in config-schema.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baton, ROOT } from '../helpers/cli.js';
import { tempTree } from '../helpers/fixtures.js';

const SHIPPED = './node_modules/baton-state/schemas/baton.config.schema.json';

describe('baton.config.json from its schema', () => {
  it('accepts a "$schema" key, and the schema it names ships in the package', () => {
    const { dir, cleanup } = tempTree({
      'baton.config.json': JSON.stringify({ $schema: SHIPPED, profile: 'eneo' }),
    });
    try {
      const doctor = baton(['doctor'], { cwd: dir, env: { BATON_ROOT: dir } });
      assert.match(doctor.stdout, /ok\s+baton\.config\.json is valid/);
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; files: string[] };
      assert.ok(SHIPPED.includes(`/${pkg.name}/`) && pkg.files.includes('schemas'));
      const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/baton.config.schema.json'), 'utf8')) as {
        properties: Record<string, unknown>;
      };
      assert.ok('$schema' in schema.properties);
    } finally {
      cleanup();
    }
  });
});
