/**
 * When baton's own failure must deny: shared by the pipeline (a config, payload or handler that
 * fails) and the hook front (the engine's lazy bundle that cannot be loaded, an install cut short),
 * so both judge a gated event alike and answer it in the host's protocol.
 */
import type { HarnessConfig } from '../../project/config.js';
import type { HookInput, HookOutcome, HostAdapter, Rendered } from './types.js';

/**
 * Whether baton failing here must fail closed: a PreToolUse of an edit or shell tool where rules are
 * active, a Stop with a barrier (`stop` configured) that is not already a continuation. Without a
 * config (it is invalid, or the engine that merges it cannot load) baton cannot tell whether rules
 * are active, so both count as gated.
 */
export function gated(input: HookInput, config: HarnessConfig | undefined, garbage: boolean): boolean {
  if (input.event === 'PreToolUse')
    return (config === undefined || config.rules.length > 0) && (garbage || input.toolKind !== 'other');
  if (input.event === 'Stop') return (config === undefined || config.stop !== undefined) && !input.stopHookActive;
  return false;
}

/** A gated event's answer when baton failed: the one line as a deny (PreToolUse) or a block (Stop). */
export function closedAnswer(
  adapter: HostAdapter,
  input: HookInput,
  denyProtocol: unknown,
  line: string,
  rule: string,
): Rendered {
  const outcome: HookOutcome =
    input.event === 'PreToolUse' ? { deny: { rule, message: line }, log: [] } : { block: { reason: line }, log: [] };
  return denyProtocol === 'exit2' ? exitTwo(input, outcome, adapter) : adapter.render(input, outcome);
}

/**
 * The exit-2 protocol (`"denyProtocol": "exit2"` in baton.config.json), for hosts and wrapper
 * scripts that read a block from the exit code: the reason alone on stderr and exit 2. Everything
 * that is not a deny or block renders as usual.
 */
export function exitTwo(input: HookInput, outcome: HookOutcome, adapter: HostAdapter): Rendered {
  const reason = outcome.deny ? `${outcome.deny.message}\n[baton rule ${outcome.deny.rule}]` : outcome.block?.reason;
  if (reason === undefined) return adapter.render(input, outcome);
  return { stdout: '', stderr: `${reason}\n`, code: 2 };
}
