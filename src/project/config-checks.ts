/**
 * What a write checks against baton.config.json, in one module: the `limits` section and the
 * rules the config gives documents, both through the config's compiled validator. The CLI builds
 * it as a lazy bundle (scripts/cli-bundles.mjs), which a write loads only when the project has a
 * config, and a read only when the config sets limits.
 */
export { projectLimits } from './config-schema.js';
export { projectCheck } from './document-rules.js';
