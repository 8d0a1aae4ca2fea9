/**
 * A built-in profile lives in one module (src/project/profiles/<name>.ts), listed once in the
 * registry; everything else (the config schema's enum, the hook front, root discovery, the
 * merge) reads it from there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeConfig, validateConfig } from '../../src/project/config.js';
import { DEFAULT_PROFILE, PROFILES, profileNamed } from '../../src/project/profiles/registry.js';
import { rootConfigOf } from '../../src/project/root.js';
import { ROOT } from '../helpers/cli.js';

describe('the profile registry', () => {
  // npm run generate writes the enum from the registry (test/architecture/generated.unit.test.ts holds it there).
  it('the config schema offers exactly the registered profiles', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'baton.config.schema.json'), 'utf8')) as {
      properties: { profile: { enum: string[] } };
    };
    assert.deepEqual([...schema.properties.profile.enum].sort(), Object.keys(PROFILES).sort());
  });

  it('each profile is filed under its own name, and a harness profile carries a config of that name', () => {
    for (const [key, profile] of Object.entries(PROFILES)) {
      assert.equal(profile.name, key);
      if (profile.kind === 'harness') assert.equal(profile.config?.profile, key, key);
      else assert.equal(profile.config, undefined, `${key}: a goal profile has no config to merge`);
    }
  });

  it('the default profile is a harness profile with a layout to assume', () => {
    const profile = profileNamed(DEFAULT_PROFILE);
    assert.equal(profile?.kind, 'harness');
    assert.ok(profile?.config?.documents.task, 'the default profile says where the task document lives');
  });

  it('names only its own entries: inherited keys and the empty name are no profile', () => {
    for (const name of ['toString', '__proto__', 'constructor', '', 'ENEO', undefined])
      assert.equal(profileNamed(name), undefined, String(name));
    assert.equal(rootConfigOf({}, 'toString'), undefined);
    assert.deepEqual(mergeConfig({}, 'toString').rules, []);
  });

  it('the merge, the root markers and --profile validation read the registry', () => {
    assert.deepEqual(rootConfigOf({}, 'eneo'), PROFILES.eneo?.root);
    assert.deepEqual(mergeConfig({}, 'eneo').rules, PROFILES.eneo?.config?.rules);
    assert.deepEqual(mergeConfig({}, 'orchestrate').rules, []);
    assert.deepEqual(validateConfig({}, 'orchestrate').issues, []);
    assert.deepEqual(validateConfig({}, 'eneo-ish').issues, [
      {
        path: 'profile',
        message: `unknown profile "eneo-ish"; built-in profiles: ${Object.keys(PROFILES).join(', ')}`,
      },
    ]);
  });

  // Project discovery (every `baton get`, every hook) reads a profile's `root`; only a merge reads
  // its config, the largest literal a get bundle held (~0.9 M instructions of every get to build at
  // load: docs/benchmarks.md). So the config is made on its first read, and once.
  it("a profile's config is made on its first read, not when the registry loads, and is the same object after", () => {
    for (const [name, profile] of Object.entries(PROFILES)) {
      if (profile.kind !== 'harness') continue;
      assert.equal(typeof Object.getOwnPropertyDescriptor(profile, 'config')?.get, 'function', name);
      assert.equal(profile.config, profile.config, name);
    }
    // The tdd profile shares the eneo profile's lists, made from it on first read.
    assert.equal(PROFILES.tdd?.config?.pathClasses.test, PROFILES.eneo?.config?.pathClasses.test);
    assert.equal(PROFILES.tdd?.config?.documents, PROFILES.eneo?.config?.documents);
  });
});
