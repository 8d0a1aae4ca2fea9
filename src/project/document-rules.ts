/**
 * The rules baton.config.json gives a document, beside its schema's: today the classification of
 * the task document. The engine asks for them on every write (doc/doc.ts), so they
 * hold whichever face writes: `baton task`, a plain `update`/`set`/`revert`, the library, a hook.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { mergeConfig, type BatonConfig, type HarnessConfig } from './config.js';
import { checkClassification, type Classification } from './classification.js';
import { CONFIG_FILE } from './config-file.js';
import { checkConfig, configRefusal } from './config-schema.js';
import type { ProjectContext } from './project-context.js';
import { DEFAULT_PROFILE, profileNamed } from './profiles/registry.js';

export interface TaskRules {
  /** The merged configuration: the eneo layout unless the project chose another profile. */
  config: HarnessConfig;
  /** Absolute path of the task document. */
  path: string;
  classification: Classification | undefined;
}

/** The task document's rules; a config the schema refuses refuses the call (usage, exit 2). */
export function taskRules(project: ProjectContext): TaskRules {
  const checked = checkConfig(project.config);
  if (!checked.config) throw new BatonError('usage', configRefusal(configPath(project), checked.issues));
  return rulesOf(checked.config, project.root);
}

function rulesOf(raw: BatonConfig, root: string): TaskRules {
  const chosen = profileNamed(raw.profile)?.kind === 'harness' ? raw.profile : undefined;
  // The eneo layout is where `baton task` keeps the task, but its enums apply only to a project
  // that chose the profile: with no configuration any value is accepted.
  const config = mergeConfig(raw, chosen ?? DEFAULT_PROFILE);
  const classification = chosen === undefined ? raw.classification : config.classification;
  const path = resolve(root, config.documents.task?.path ?? `${config.stateDir}/current-task.json`);
  return {
    config,
    path,
    classification: classification && Object.keys(classification).length > 0 ? classification : undefined,
  };
}

/** The check the project config adds to a write of `file`, or undefined when it adds none. */
export function projectCheck(project: ProjectContext, file: string): ((doc: JsonObject) => void) | undefined {
  if (project.file.state === 'missing') return undefined;
  const checked = project.file.state === 'ok' ? checkConfig(project.config) : undefined;
  if (!checked?.config) {
    // Fail closed: a broken config must not switch the task document's rules off.
    if (canonical(file) !== canonical(rulesOf({}, project.root).path)) return undefined;
    const error =
      project.file.state === 'invalid' ? project.file.error : configRefusal(configPath(project), checked?.issues ?? []);
    return () => {
      throw new BatonError(
        'usage',
        `${error}; until then the task document's rules cannot be checked and nothing is written`,
      );
    };
  }
  const { path, classification } = rulesOf(checked.config, project.root);
  if (!classification || canonical(file) !== canonical(path)) return undefined;
  return (doc) => checkClassification(doc, classification);
}

function configPath(project: ProjectContext): string {
  return join(project.configRoot, CONFIG_FILE);
}

/** The real path, through symlinks, of a file that may not exist yet (its folder resolved). */
function canonical(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return resolve(file);
    }
  }
}
