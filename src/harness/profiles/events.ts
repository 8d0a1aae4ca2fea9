/**
 * Which events each built-in profile handles, known without importing the profile, so a hook
 * for any other event returns after reading stdin and the config (about a bare Node start).
 */
export const BUILTIN_EVENTS: Record<string, readonly string[]> = {
  eneo: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'SubagentStop', 'PreCompact'],
  orchestrate: ['SessionStart', 'Stop', 'SessionEnd'],
};

/** Events a project's own config sections ask for, on top of its profile's. */
export function configEvents(config: Record<string, unknown>): string[] {
  const events: string[] = [];
  if (Array.isArray(config.rules) && config.rules.length > 0) events.push('PreToolUse');
  if (config.sessionStart) events.push('SessionStart');
  if (config.audit) events.push('UserPromptSubmit');
  if (config.wave) events.push('SubagentStop');
  if (config.snapshot) events.push('PreCompact');
  if (config.stop) events.push('Stop');
  return events;
}
