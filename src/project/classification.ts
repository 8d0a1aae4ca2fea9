/**
 * The classification fields of the task document (lane, bracket,
 * tenancy_impact, audit_impact, or whatever a project names) checked against the allowed values
 * of `classification` in baton.config.json. With no configuration any value of the schema's type
 * is accepted; the eneo profile configures the Eneo enums.
 *
 * The engine checks them on every write of the task document (project/document-rules.ts), whichever
 * face writes it: `baton task`, a plain `baton update` or `set`, the library, a hook. The whole
 * document is checked, not just the fields an expression touched, like the schema check.
 */
import { BatonError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { ClassRule } from '../generated/types/baton-config.js';

export type Classification = Record<string, ClassRule | null>;

/** `{path, message}` problems of a document against the rules, all of them. */
export function classificationIssues(doc: JsonObject, rules: Classification): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  for (const [field, rule] of Object.entries(rules)) {
    const value = doc[field];
    // null or absent: the field is unset (init's flag form leaves it null), nothing to classify
    if (rule === null || value === undefined || value === null) continue;
    if (Array.isArray(rule)) {
      if (!rule.some((allowed) => allowed === value || String(allowed) === value)) {
        issues.push({
          path: field,
          message: `${JSON.stringify(value)} is not allowed: expected one of ${rule.join(', ')}`,
        });
      }
    } else if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      (rule.min !== undefined && value < rule.min) ||
      (rule.max !== undefined && value > rule.max)
    ) {
      issues.push({
        path: field,
        message: `${JSON.stringify(value)} is not allowed: expected an integer ${rangeText(rule)}`,
      });
    }
  }
  return issues;
}

function rangeText(rule: { min?: number; max?: number }): string {
  if (rule.min !== undefined && rule.max !== undefined) return `from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `of at least ${rule.min}`;
  return rule.max !== undefined ? `of at most ${rule.max}` : '';
}

export function checkClassification(doc: JsonObject, rules: Classification): void {
  const issues = classificationIssues(doc, rules);
  if (issues.length === 0) return;
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new BatonError(
    'invalid',
    `classification refuses the write: ${summary} (classification in baton.config.json); nothing was written`,
    { issues },
  );
}
