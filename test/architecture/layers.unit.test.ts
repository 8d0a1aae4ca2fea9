import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LAYERS, readModules, SRC, violations } from './layers.js';

/** One module's imports judged alone, as if it sat at `module` under src/. */
const judge = (module: string, source: string) => violations(new Map([[module, source]]));

describe('the layers of src/', () => {
  it('hold: no module imports a higher layer, a sideways part without a reason, or store internals', () => {
    const modules = readModules(SRC);
    assert.ok(modules.size > 100, `read only ${modules.size} modules from ${SRC}`);
    assert.deepEqual(violations(modules), []);
  });

  it('every folder of src/ belongs to a layer', () => {
    const parts = new Set([...readModules(SRC).keys()].map((module) => module.split('/')[0]));
    const known = new Set(LAYERS.flatMap((layer) => layer.parts));
    assert.deepEqual(
      [...parts].filter((part) => !known.has(part!)),
      [],
    );
  });

  it('refuses a lower layer importing a face or a feature, in any import form', () => {
    assert.match(
      judge('core/json.ts', "import type { CommandIo } from '../cli/process-io.js';").join(),
      /core may not import faces/,
    );
    assert.match(
      judge('stores/memory.ts', "const m = await import('../doctor/checks.js');").join(),
      /stores may not import features/,
    );
    assert.match(
      judge('doc/doc.ts', "export { x } from '../goal/goal-paths.js';").join(),
      /doc may not import features/,
    );
    assert.match(
      judge('goal/pointer.ts', "import { processIo } from '../cli/process-io.js';").join(),
      /features may not import faces/,
    );
    assert.match(judge('fs/lock.ts', "import { root } from '../project/root.js';").join(), /fs may not import project/);
  });

  it('refuses a feature or a face reaching into a store, and allows the stores entry', () => {
    assert.match(
      judge('goal/state-file.ts', "import { docPaths } from '../stores/file/layout.js';").join(),
      /stores' public entry/,
    );
    assert.match(
      judge('cli/commands/get.ts', "import { FileStore } from '../../stores/file/file-store.js';").join(),
      /stores' public entry/,
    );
    assert.match(
      judge('doc/open.ts', "import type { Store } from '../stores/store.js';").join(),
      /stores' public entry/,
    );
    assert.deepEqual(judge('goal/state-file.ts', "import { FileStore } from '../stores/index.js';"), []);
    assert.deepEqual(judge('stores/file/file-store.ts', "import { docPaths } from './layout.js';"), []);
  });

  it('refuses the stores entry exporting a backend internal, and allows its store class', () => {
    assert.match(
      judge('stores/index.ts', "export { SIDECAR } from './file/layout.js';").join(),
      /exports SIDECAR, a backend internal/,
    );
    assert.match(
      judge('stores/index.ts', "export { FileStore, readDocument } from './file/file-store.js';").join(),
      /exports readDocument, a backend internal/,
    );
    assert.match(
      judge('stores/index.ts', "export * from './postgres/postgres-store.js';").join(),
      /exports \*, a backend/,
    );
    assert.deepEqual(
      judge('stores/index.ts', "export { FileStore, type FileStoreOptions } from './file/file-store.js';"),
      [],
    );
    assert.deepEqual(judge('stores/index.ts', "export { openStore } from './open.js';"), []);
    assert.deepEqual(judge('cli/main.ts', "import { STORE_SCHEMES } from '../stores/schemes.js';"), []);
    assert.match(judge('stores/schemes.ts', "import { x } from './store.js';").join(), /plain data/);
  });

  it('refuses an import between parts of a layer that has no reason, and I/O in core', () => {
    assert.match(
      judge('run/gate.ts', "import { goalRoot } from '../goal/goal-paths.js';").join(),
      /run and goal are both features/,
    );
    assert.deepEqual(
      judge('goal/hooks/goal-handlers.ts', "import { runPipeline } from '../../harness/hooks/pipeline.js';"),
      [],
    );
    assert.match(judge('core/hash.ts', "import { readFileSync } from 'node:fs';").join(), /core\/ does no I\/O/);
    assert.match(judge('newpart/x.ts', "import { a } from '../core/json.js';").join(), /belongs to no layer/);
  });
});
