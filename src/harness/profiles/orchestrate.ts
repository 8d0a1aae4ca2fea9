import { existsSync } from 'node:fs';
import type { Cli } from '../../cli/context.js';

/**
 * The `orchestrate` hook profile: the goal hooks of the orchestrate workflow (SessionStart, Stop,
 * SessionEnd). The common case is "no active goal": it is decided with one stat before anything
 * else loads, so that path costs a bare Node start. Everything heavier is imported only when a
 * pointer exists. Whatever happens, the hook exits 0 and writes nothing to stderr (spec 5.0).
 */
const EVENTS = new Set(['SessionStart', 'Stop', 'SessionEnd']);

export default async function handle(event: string, stdin: string, cli: Cli): Promise<number> {
  try {
    const home = cli.env.HOME;
    if (!home || !EVENTS.has(event)) return 0;
    // Not even ROOT is created when there is no pointer (5.1).
    if (!existsSync(`${home}/.claude/orchestrate/active`)) return 0;
    const { runGoalHook } = await import('../../goal/hooks/run.js');
    const buffered: string[] = [];
    await runGoalHook(event, stdin, { ...cli, out: (text) => void buffered.push(text), err: () => undefined });
    if (buffered.length > 0) cli.out(buffered.join(''));
  } catch {
    // silent by contract; output is buffered above so a failure halfway prints nothing
  }
  return 0;
}

