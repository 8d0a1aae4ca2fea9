/**
 * What `baton store import` must hold to beside the store's own checks (stores/portable.ts): an
 * imported document is a write like any other, so it lands only where baton may write now (the
 * gate's rules and baton's state, protect.ts), its schema is one baton would load (built in or
 * inside the project), and the document obeys that schema and the project's rules. An import is no
 * baton operation, so a document whose sealed fields are set (a pipeline run's phases) is refused:
 * only `baton run` and `baton phase` may have set them, and an export line cannot prove they did.
 */
import { resolve } from 'node:path';
import { BatonError } from '../core/errors.js';
import { isObject, type Json } from '../core/json.js';
import { checkShape, resolveLimits, type Limits } from '../core/limits.js';
import { projectLimits } from '../project/config-schema.js';
import { projectCheck } from '../project/document-rules.js';
import { protection } from '../project/policy/protect.js';
import type { ProjectContext } from '../project/project-context.js';
import type { DocumentDump, ImportOptions } from '../stores/index.js';
import { loadSchema } from './schemas.js';

export function importRules(project: ProjectContext, root: string): ImportOptions {
  const limits: Limits = resolveLimits(projectLimits(project.config));
  const guard = protection(project);
  // A configured document is baton state to an agent's tools, and baton's to write: importing it is the ordinary case.
  const documents = Object.values(guard.config?.documents ?? {}).map((doc) => resolve(project.root, doc.path));
  return {
    maxDepth: limits.maxDepth,
    async check(dump: DocumentDump) {
      const file = resolve(root, dump.key);
      const hit = guard.check(file, { state: documents });
      if (hit) throw new BatonError('forbidden', `${dump.key} may not be written: ${hit.message}`);
      if (dump.text === '') return;
      const doc = JSON.parse(dump.text.replace(/^\ufeff/, '')) as Json;
      if (!isObject(doc)) throw new BatonError('invalid', `${dump.key} is not a JSON object`);
      checkShape(doc, limits, dump.key);
      const schema = await loadSchema(dump.meta.schema, root);
      const issues = schema.validate(doc);
      if (issues.length > 0)
        throw new BatonError(
          'invalid',
          `${dump.key} does not match its schema ${schema.name}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        );
      const sealed = Object.keys(schema.rules.sealed).find((field) => doc[field] !== undefined);
      if (sealed !== undefined)
        throw new BatonError(
          'forbidden',
          `${dump.key} has its sealed field ${sealed} set, which only a baton operation may set and an import cannot prove; start it again on the target (baton run init)`,
        );
      projectCheck(project, file)?.(doc);
    },
  };
}
