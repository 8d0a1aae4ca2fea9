/**
 * Every environment variable that tunes a run is parsed by runtimeOptions() (core/runtime-options.ts),
 * once, the same way for every face; this table is what each one gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_LOCK_STALE_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  ENVIRONMENT,
  HELPER_LOCK_TIMEOUT_MS,
  HOOK_LOCK_TIMEOUT_MS,
  runtimeOptions,
  type RuntimeOptions,
} from '../../src/core/runtime-options.js';
import { ROOT } from '../helpers/cli.js';
import { hookLockTimeoutMs } from '../../src/harness/hooks/handlers/handler-context.js';

const DEFAULTS: RuntimeOptions = { lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS, lockStaleMs: DEFAULT_LOCK_STALE_MS };

const TABLE: [env: Record<string, string>, options: RuntimeOptions][] = [
  [{}, DEFAULTS],
  [{ BATON_LOCK_TIMEOUT_MS: '1500' }, { ...DEFAULTS, lockTimeoutMs: 1500 }],
  [{ BATON_LOCK_TIMEOUT_MS: ' 250 ' }, { ...DEFAULTS, lockTimeoutMs: 250 }],
  // A typo never turns a budget into 0, NaN or a negative wait: the default holds.
  [{ BATON_LOCK_TIMEOUT_MS: '' }, DEFAULTS],
  [{ BATON_LOCK_TIMEOUT_MS: '0' }, DEFAULTS],
  [{ BATON_LOCK_TIMEOUT_MS: '-5' }, DEFAULTS],
  [{ BATON_LOCK_TIMEOUT_MS: '5s' }, DEFAULTS],
  [{ BATON_LOCK_TIMEOUT_MS: 'Infinity' }, DEFAULTS],
  [{ BATON_LOCK_STALE_MS: '300' }, { ...DEFAULTS, lockStaleMs: 300 }],
  [{ BATON_LOCK_STALE_MS: 'never' }, DEFAULTS],
  [{ BATON_HOST_ID: 'box-a' }, { ...DEFAULTS, hostId: 'box-a' }],
  [{ BATON_HOST_ID: '' }, DEFAULTS],
  [{ BATON_MAX_VALUE_BYTES: '1024' }, { ...DEFAULTS, maxValueBytes: 1024 }],
  [{ BATON_MAX_VALUE_BYTES: '0' }, DEFAULTS],
  [{ BATON_LOCK_HOLDER_PID: '4242' }, { ...DEFAULTS, lockHolderPid: 4242 }],
  [{ BATON_LOCK_HOLDER_PID: '$$' }, DEFAULTS],
  [{ UNRELATED: '1', BATON_STORE: 'memory:' }, DEFAULTS],
];

describe('runtimeOptions', () => {
  it('maps each environment to its options', () => {
    for (const [env, options] of TABLE) assert.deepEqual(runtimeOptions(env), options, JSON.stringify(env));
  });

  it("a face's own default yields to the environment, never the other way round", () => {
    const helper = { lockTimeoutMs: HELPER_LOCK_TIMEOUT_MS };
    assert.equal(runtimeOptions({}, helper).lockTimeoutMs, HELPER_LOCK_TIMEOUT_MS);
    assert.equal(runtimeOptions({ BATON_LOCK_TIMEOUT_MS: 'x' }, helper).lockTimeoutMs, HELPER_LOCK_TIMEOUT_MS);
    assert.equal(runtimeOptions({ BATON_LOCK_TIMEOUT_MS: '900' }, helper).lockTimeoutMs, 900);
  });

  it('the hook handlers that write take their budget from here, never a number of their own', () => {
    const handlers = join(ROOT, 'src', 'harness', 'hooks', 'handlers');
    const literal: string[] = [];
    for (const name of readdirSync(handlers)) {
      const text = readFileSync(join(handlers, name), 'utf8');
      if (/openDoc\([^;]*lockTimeoutMs:\s*[\d_]+\s*[,}]/s.test(text)) literal.push(name);
    }
    assert.deepEqual(literal, []);
    assert.equal(hookLockTimeoutMs({}), HOOK_LOCK_TIMEOUT_MS);
    assert.equal(hookLockTimeoutMs({ BATON_LOCK_TIMEOUT_MS: 'soon' }), HOOK_LOCK_TIMEOUT_MS);
    assert.equal(hookLockTimeoutMs({ BATON_LOCK_TIMEOUT_MS: '12000' }), 12000);
  });

  it('the table names every option once, and docs/cli.md lists every variable', () => {
    const options = ENVIRONMENT.map((entry) => entry.option);
    assert.equal(new Set(options).size, options.length);
    const all = runtimeOptions(Object.fromEntries(ENVIRONMENT.map((entry) => [entry.name, '7'])));
    assert.deepEqual(Object.keys(all).sort(), [...options].sort());
    const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const entry of ENVIRONMENT) assert.ok(page.includes(`| \`${entry.name}\` |`), entry.name);
  });

  it('no module outside core/runtime-options.ts parses these variables', () => {
    const offenders: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    for (const file of walk(join(ROOT, 'src'))) {
      if (file.endsWith(join('core', 'runtime-options.ts'))) continue;
      const text = readFileSync(file, 'utf8');
      for (const entry of ENVIRONMENT) if (text.includes(`env.${entry.name}`)) offenders.push(`${file}: ${entry.name}`);
    }
    assert.deepEqual(offenders, []);
  });
});
