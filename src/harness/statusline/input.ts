/**
 * The host's status JSON (claude-code-hooks.md "Status line"), reduced to the fields the status
 * line shows. Every field is optional: older hosts omit some, and an empty string or null counts
 * as absent while 0 is a value. Garbage stdin yields an empty input,
 * never an exception, so line 1 still renders with its defaults.
 */
export interface StatusInput {
  model: string;
  sessionName?: string;
  sessionId?: string;
  currentDir?: string;
  projectDir?: string;
  worktree?: string;
  contextPct?: number;
  costUsd?: number;
  durationMs?: number;
  fiveHourPct?: number;
  sevenDayPct?: number;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Numbers may arrive as numeric strings from hand-written payloads; anything else is absent. */
function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

export function parseStatusInput(stdin: string): StatusInput {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    raw = {};
  }
  const root = obj(raw);
  const model = obj(root.model);
  const workspace = obj(root.workspace);
  const cost = obj(root.cost);
  const limits = obj(root.rate_limits);
  const input: StatusInput = { model: text(model.display_name) ?? 'Claude' };
  const fields: [keyof StatusInput, unknown][] = [
    ['sessionName', text(root.session_name)],
    ['sessionId', text(root.session_id)],
    ['currentDir', text(workspace.current_dir) ?? text(root.cwd)],
    ['projectDir', text(workspace.project_dir)],
    ['worktree', text(workspace.git_worktree)],
    ['contextPct', num(obj(root.context_window).used_percentage)],
    ['costUsd', num(cost.total_cost_usd)],
    ['durationMs', num(cost.total_duration_ms)],
    ['fiveHourPct', num(obj(limits.five_hour).used_percentage)],
    ['sevenDayPct', num(obj(limits.seven_day).used_percentage)],
  ];
  for (const [key, value] of fields) if (value !== undefined) (input as unknown as Obj)[key] = value;
  return input;
}
