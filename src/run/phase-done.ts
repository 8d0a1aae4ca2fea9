import { isoSeconds } from '../core/iso-time.js';
import { BatonError } from '../core/errors.js';
import type { Json } from '../core/json.js';
import { OUTPUT_KEY } from './contract.js';
import type { Run } from './run-document.js';
import { checkSize } from './size-limits.js';
import { finishPhase } from './phases.js';
import { inspectPath, projectRelative } from './project-path.js';

/** The run's own top-level fields: a promoted output or an `also` list must not overwrite them. */
const RESERVED = ['session', 'phases', 'contract'];

export interface PhaseDoneInput {
  agent?: string | undefined;
  outputs: [string, Json][];
  /** Paths as the caller gave them; they are made project-relative (and refused outside it) here. */
  evidence: string[];
  workItems: string[];
  also?: string | undefined;
  promote: boolean;
}

/** How the calling face spells its inputs, so an error names what the user typed. */
export interface InputNames {
  output: string;
  evidence: string;
  also: string;
  promote: string;
}

/**
 * `phase done` for every face (CLI, MCP), so a check cannot hold in one and be missing in another:
 * the checks that need no lock, then one locked update. Returns the warnings for the face to show
 * (oversize outputs, evidence not on disk yet).
 */
export async function recordPhaseDone(
  run: Run,
  key: string,
  input: PhaseDoneInput,
  names: InputNames,
): Promise<string[]> {
  const root = run.location.root;
  for (const [name] of input.outputs) {
    if (!OUTPUT_KEY.test(name))
      throw new BatonError(
        'usage',
        `${names.output} ${JSON.stringify(name)} must be a key of letters, digits, '_', '-', '.'`,
      );
    if (input.promote && RESERVED.includes(name))
      throw new BatonError('usage', `${names.promote} cannot set the run's own field '${name}'; rename the output`);
  }
  const warnings = input.outputs
    .map(([name, value]) => checkSize(`output ${name}`, value, run.limits))
    .filter((w): w is string => w !== undefined);
  const evidence = input.evidence.map((path) => projectRelative(path, root, 'evidence'));
  const workItems = input.workItems.map((path) => projectRelative(path, root, 'work item'));
  const { also } = input;
  if (also !== undefined && (!OUTPUT_KEY.test(also) || RESERVED.includes(also) || evidence.length === 0)) {
    throw new BatonError(
      'usage',
      `${names.also} ${JSON.stringify(also)} needs ${names.evidence} and a top-level list name other than ${RESERVED.join('/')} (e.g. phase-2-evidence)`,
    );
  }
  for (const path of [...evidence, ...workItems]) {
    if (inspectPath(path, root) !== 'ok')
      warnings.push(`warning: ${path} does not exist yet (or is empty); the gate fails until it does`);
  }
  const now = isoSeconds();
  await run.update(
    (doc) =>
      void finishPhase(doc, key, {
        now,
        agent: input.agent,
        outputs: input.outputs,
        evidence,
        workItems,
        also,
        promote: input.promote,
      }),
    'phase',
  );
  return warnings;
}
