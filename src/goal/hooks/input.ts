/**
 * The goal hooks' reading of the one payload the pipeline hands every handler (`input.raw`), by
 * the original goal hooks' rules, which differ from the harness's: missing or null fields read as
 * empty, other non-strings as their JSON text, a newline inside a value as a space; input that
 * is not a JSON object reads as all empty.
 */
export interface GoalPayload {
  sessionId: string;
  transcriptPath: string;
  cwd: string;
  source: string;
  reason: string;
  stopHookActive: boolean;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.replaceAll('\n', ' ');
}

/** From the payload as parsed by the hook front (garbage arrives as `{}`). */
export function goalInput(data: Record<string, unknown>): GoalPayload {
  const active = data.stop_hook_active;
  return {
    sessionId: asText(data.session_id),
    transcriptPath: asText(data.transcript_path),
    cwd: asText(data.cwd),
    source: asText(data.source),
    reason: asText(data.reason),
    stopHookActive: active === true || active === 'true',
  };
}
