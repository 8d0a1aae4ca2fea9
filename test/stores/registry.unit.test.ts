import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKENDS, backendFor, isStoreFile } from '../../src/stores/registry.js';
import { hooksFetch, SCHEMES, STORE_SCHEMES } from '../../src/stores/schemes.js';
import { ROOT } from '../helpers/cli.js';

describe('the store registry', () => {
  it('gives every scheme a backend, and a URL the backend its scheme names', () => {
    assert.deepEqual(Object.keys(BACKENDS).sort(), SCHEMES.map((entry) => entry.kind).sort());
    for (const entry of SCHEMES)
      for (const scheme of entry.schemes.filter(Boolean))
        assert.equal(backendFor(`${scheme}//x`).kind, entry.kind, scheme);
    assert.equal(backendFor(undefined).kind, 'file');
    assert.throws(() => backendFor('redis://x'), /unknown store 'redis:'.*file:.*memory:.*postgres:\/\//);
  });

  it('says which stores hooks fetch through and which names a store keeps in the project', () => {
    assert.equal(hooksFetch(undefined), false);
    assert.equal(hooksFetch('file:'), false);
    assert.equal(hooksFetch('postgresql://h/db'), true);
    assert.equal(hooksFetch('redis://x'), true);
    assert.equal(isStoreFile('.baton'), true);
    assert.equal(isStoreFile('session-x.json'), false);
  });

  it('the config schema names the stores as the registry spells them', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'baton.config.schema.json'), 'utf8')) as {
      properties: { store: { description: string } };
    };
    assert.ok(schema.properties.store.description.includes(STORE_SCHEMES), schema.properties.store.description);
  });
});
