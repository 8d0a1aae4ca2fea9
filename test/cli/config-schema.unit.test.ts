/**
 * baton.config.json is checked against schemas/baton.config.schema.json, the file an editor is
 * pointed at with `"$schema"`: a problem names the JSON path and what was expected there, and a
 * config the schema refuses refuses writes to the task document rather than switching its rules off.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROFILES } from '../../src/project/profiles/registry.js';
import { checkConfig } from '../../src/project/config-schema.js';
import { batonInProcess as baton, eneoTaskProjectInProcess } from '../helpers/cli.js';
import { treeFiles } from '../helpers/fixtures.js';

const TASK = '.claude/state/current-task.json';

describe('baton.config.json from its schema', () => {
  it('a config the schema refuses refuses task writes: exit 2, one line naming the file, the path, what was expected and the fix', async () => {
    const { dir, env, cleanup } = await eneoTaskProjectInProcess();
    try {
      writeFileSync(join(dir, 'baton.config.json'), '{"profile": "eneo", "classification": {"lane": "fast"}}');
      const before = treeFiles(dir);
      const r = await baton(['set', TASK, 'lane', 'standard'], { cwd: dir, env });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(r.stderr.includes(join(dir, 'baton.config.json')), r.stderr);
      assert.match(
        r.stderr,
        /classification\.lane: expected a list of allowed values, an integer range \{"min": 1, "max": 4\}, or null, found "fast"; fix the file/,
      );
      assert.notEqual((await baton(['task', 'update', '--', '.lane = "standard"'], { cwd: dir, env })).code, 0);
      assert.deepEqual(treeFiles(dir), before);
      // Other documents are not the config's to rule: they are written as before.
      assert.equal((await baton(['init', 'other.json'], { cwd: dir, env })).code, 0);
    } finally {
      cleanup();
    }
  });

  it('names the JSON path of every problem and what was expected there', async () => {
    const { issues } = checkConfig({
      profile: 'eneo-ish',
      pathClasses: { 'a.b': ['x', 1] },
      rules: [{ id: 'r', on: 'edit' }],
      limits: { maxDepth: 5000 },
      stop: { waveGate: 'never' },
      bogus: true,
    });
    assert.deepEqual(
      issues.map((i) => `${i.path}: ${i.message}`),
      [
        'bogus: unknown section; expected one of description, profile, stateDir, store, documents, pathClasses, allow, rules, disable, sessionStart, audit, wave, snapshot, stop, lanes, requiredFiles, classification, root, statusline, denyProtocol, shell, project, limits',
        'profile: expected one of "eneo", "orchestrate", "tdd", found "eneo-ish"',
        'pathClasses["a.b"][1]: expected string, found 1',
        'rules[0]: expected a rule with "id", "on" and "paths" (classes or globs) or "command" (a regular expression), found an object',
        'stop.waveGate: expected one of "incomplete", "blocked", "off", found "never"',
        'limits.maxDepth: expected an integer from 1 to 1000 (deeper nesting overflows the stack), found 5000',
      ],
    );
  });

  it('every built-in profile is a valid config', async () => {
    for (const [name, profile] of Object.entries(PROFILES))
      if (profile.config) assert.deepEqual(checkConfig(profile.config).issues, [], name);
  });
});
