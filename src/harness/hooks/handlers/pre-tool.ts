import { homedir } from 'node:os';
import { isBatonError } from '../../../core/errors.js';
import { evaluatePolicy } from '../../policy/evaluate.js';
import { writerClaim } from '../../policy/writer-claim.js';
import { bindAgent, boardIdentityDenial, boardName, runsBoard } from '../../policy/board-identity.js';
import { RESERVED_RULE, reservationRules, unreadableBoardRule } from '../../policy/reservations.js';
import { readProjectBoard } from './board-events.js';
import { STATE_RULE } from '../../../project/policy/state-files.js';
import type { RuleConfig } from '../../../project/config.js';
import type { SandboxMode } from '../../sandbox/probe.js';
import type { HookOutcome } from '../types.js';
import type { HandlerContext } from './handler-context.js';

/**
 * PreToolUse: the configured policy rules (edit gate, protected files, bash firewall) and baton's
 * own state. Only a shell command loads the shell parser and analysis. In a phase with
 * phase-scoped shell rules, a shell call the parser does not deny runs inside the OS sandbox
 * (../sandbox/), where the host can run a rewritten command: then what the parser cannot resolve
 * about those rules is left to the sandbox instead of denied. Without a sandbox such a phase
 * allows only commands proved harmless (../policy/harmless.ts).
 */
export async function preTool(context: HandlerContext): Promise<HookOutcome> {
  const { input } = context;
  const claim = writerClaim(input) ?? boardIdentityDenial(input);
  if (claim) return { deny: claim, log: [] };
  const { rules: reserved, notice } = await reservations(context);
  const decided = await gate(context, reserved);
  if (notice) decided.notice = decided.notice ? `${decided.notice}\n${notice}` : notice;
  // A shell call that runs `baton work` learns who runs it (board-identity.ts); a host that cannot
  // run a rewritten command leaves it to --as, which the check above holds to the caller's name.
  if (decided.deny || input.toolKind !== 'bash' || !context.host.rewritesShell || !runsBoard(input.command))
    return decided;
  return { ...decided, rewrite: { command: bindAgent(decided.rewrite?.command ?? input.command, input) } };
}

async function gate(context: HandlerContext, reserved: RuleConfig[]): Promise<HookOutcome> {
  const { input, root, env, documents } = context;
  const config =
    reserved.length === 0 ? context.config : { ...context.config, rules: [...context.config.rules, ...reserved] };
  if (input.toolKind !== 'bash' || input.command.trim() === '')
    return outcome(evaluatePolicy(input, config, root, undefined, documents));
  const home = env.HOME || homedir();
  const { analyzeShell, rawNames } = await import('../../shell/analyze.js');
  const cwd = input.cwd || root;
  let analysis;
  try {
    analysis = analyzeShell(input.command, cwd, home);
  } catch (error) {
    // A command the analysis cannot finish is one baton cannot tell about: fail closed on it.
    const construct = `a command baton could not analyse (${error instanceof Error ? error.message : String(error)})`;
    analysis = { writes: [], opaque: [{ construct }], names: rawNames(input.command), cwds: [cwd] };
  }
  const { phaseRules } = await import('../../sandbox/protected.js');
  const rules = phaseRules(input, config, root, documents);
  if (rules.length === 0) return outcome(evaluatePolicy(input, config, root, analysis, documents));
  const { sandboxMode } = await import('../../sandbox/probe.js');
  // Only a command the host gave as text can be given back rewritten.
  const text = typeof (input.raw.tool_input as { command?: unknown } | undefined)?.command === 'string';
  const mode: SandboxMode = !context.host.rewritesShell
    ? { kind: 'none', reason: `${context.host.name} cannot run a rewritten shell command`, fix: FIX_HOST }
    : !text
      ? { kind: 'none', reason: 'the command was not given as text', fix: FIX_HOST }
      : await sandboxMode(env);
  const fallback = async (reason: string, fix: string, log: string[] = []): Promise<HookOutcome> => {
    const denial = evaluatePolicy(input, config, root, analysis, documents);
    if (denial) return { deny: denial, log };
    const { harmlessCommand } = await import('../../policy/harmless.js');
    const why = harmlessCommand(input.command, cwd, home);
    if (why === undefined) return { log };
    return { deny: { rule: (rules[0] as RuleConfig).id, message: unproved(rules, why, reason, fix) }, log };
  };
  if (mode.kind === 'none') return fallback(mode.reason, mode.fix);
  // The sandbox also holds other agents' reserved paths read-only: what the parser cannot see of a
  // command (a script, eval) cannot write them either.
  const sandboxed = (rule: { id: string }) =>
    rule.id === STATE_RULE || rule.id === RESERVED_RULE || rules.some((r) => r.id === rule.id);
  const denial = evaluatePolicy(input, config, root, analysis, documents, sandboxed);
  if (denial) return outcome(denial);
  const { wrapCommand, installation } = await import('../../sandbox/wrap.js');
  const { directBaton } = await import('../../sandbox/direct.js');
  const direct = directBaton(input.command, process.execPath, installation(context.script));
  if (direct !== undefined) return { rewrite: { command: direct }, log: [] };
  const wrapped = wrapCommand({
    mode,
    rules: [...rules, ...reserved],
    input,
    config,
    root,
    home,
    script: context.script,
    host: context.host.name,
  });
  if ('command' in wrapped)
    return context.host.name === 'codex' && mode.kind === 'bubblewrap'
      ? { rewrite: { command: await probed(wrapped.command, mode.program, input.command, cwd, home, rules) }, log: [] }
      : { rewrite: wrapped, log: [] };
  // The sandbox cannot be set up for this call: as on a machine without one.
  return fallback(wrapped.problem, 'see docs/gates.md', [
    `[baton hook] no OS sandbox for this call: ${wrapped.problem}`,
  ]);
}

/**
 * Codex runs a command inside its own sandbox unless that is off (`sandbox_mode =
 * "danger-full-access"`), and inside it bubblewrap cannot start a second one (measured with 0.171
 * in read-only and workspace-write: "Creating new namespace failed"). Nothing in the payload says
 * which, so the rewritten command probes first: where bubblewrap starts, the call runs in baton's
 * sandbox; where it cannot, as on a machine without one: the command itself when baton proved it
 * harmless here, else nothing but the reason (exit 126). The probe and the branch are the hook's
 * text, before anything of the command runs.
 */
async function probed(
  wrapped: string,
  bwrap: string,
  command: string,
  cwd: string,
  home: string,
  rules: RuleConfig[],
): Promise<string> {
  const { harmlessCommand } = await import('../../policy/harmless.js');
  const why = harmlessCommand(command, cwd, home);
  const otherwise =
    why === undefined
      ? `\\builtin eval ${quote(command)}`
      : `\\builtin printf '%s\\n' ${quote(unproved(rules, why, 'Codex runs the command inside its own sandbox, where bubblewrap cannot start another', FIX_CODEX))} >&2; \\builtin exit 126`;
  return `if ${quote(bwrap)} --dev-bind / / --unshare-pid true 2>/dev/null; then ${wrapped}; else ${otherwise}; fi`;
}

/**
 * The work board's reservations this call must respect: a rule per item another agent holds, or,
 * when the board cannot be read, one denying every write in the project (a gated event fails
 * closed). A project without a board reads nothing. A shared store that cannot be reached is the
 * one exception: where this machine never saw a board on it (board/store-marker.ts) no
 * reservation is known, and the call is judged by this machine's files, which the notice says.
 */
async function reservations(context: HandlerContext): Promise<{ rules: RuleConfig[]; notice?: string }> {
  const { input, root } = context;
  if (input.toolKind === 'other') return { rules: [] };
  // The documents' fetch already found the store down: one connect wait per hook, not two.
  let down = context.storeProblem;
  if (down === undefined) {
    let board;
    try {
      board = await readProjectBoard(context);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      // A board read and found corrupt, or a file store's board, stands for any reservation.
      if (context.documents === undefined || !isBatonError(error, 'io'))
        return { rules: [unreadableBoardRule(root, problem)] };
      down = problem;
    }
    if (down === undefined)
      return {
        rules: board
          ? reservationRules(board, { agent: boardName(input), session: input.sessionId }, root, context.now)
          : [],
      };
  }
  const { boardOnStoreMarked } = await import('../../../board/store-marker.js');
  if (boardOnStoreMarked(root)) return { rules: [unreadableBoardRule(root, down)] };
  // The pipeline's notice already says the store was down when the documents' fetch found it.
  return context.storeProblem !== undefined
    ? { rules: [] }
    : {
        rules: [],
        notice: `baton: the shared store could not be read (${down}); no work board was ever seen on this machine, so this hook judged by this machine's files, which may be stale`,
      };
}

const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

const FIX_CODEX =
  'in a protected phase run Codex with its own sandbox off (sandbox_mode = "danger-full-access"; its approvals still apply), so that baton\'s sandbox holds the protected files';

const FIX_HOST =
  'run the agent in a host whose hooks can rewrite a command (Claude Code, Codex, Gemini CLI), with bubblewrap installed';

/** The deny of a protected phase without a sandbox: the construct not proved harmless, and how to get the sandbox. */
function unproved(rules: RuleConfig[], why: string, reason: string, fix: string): string {
  return [
    `✗ Blocked: rule ${rules.map((r) => r.id).join(', ')} protects files in this phase and there is no OS sandbox (${reason}), so baton allows only shell commands it can prove write nothing; this one it cannot: ${why}.`,
    `  Fix:  ${fix}; or use the Edit/Write tools for edits, and plain read-only commands (cat, grep, git status/diff, ls) for reading.`,
  ].join('\n');
}

function outcome(denial: ReturnType<typeof evaluatePolicy>): HookOutcome {
  return denial ? { deny: denial, log: [] } : { log: [] };
}
