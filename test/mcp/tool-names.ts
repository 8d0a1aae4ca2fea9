/** The MCP tools baton offers, sorted: the same over stdio (`baton mcp`) and HTTP (`baton serve`). */
export const TOOL_NAMES = [
  'consume',
  'gate',
  'get',
  'goal',
  'history',
  'init',
  'lint',
  'phase',
  'set',
  'update',
  'work',
];
