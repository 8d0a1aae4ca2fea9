/**
 * `baton mcp`: the tools of tools.ts over stdio (and over streamable HTTP in `baton serve`), with the official SDK's low-level Server (its
 * McpServer wants zod schemas; ours are plain JSON Schema, kept short for the agent's context).
 * Arguments are checked against the same schemas the client is shown (arguments.ts); a
 * failure of any kind comes back as a tool error carrying baton's code, never as a crash.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BatonError, fromSystemError, isBatonError } from '../core/errors.js';
import { argumentCheck } from './arguments.js';
import { TOOLS, type ToolContext } from './tools.js';

export interface McpOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** --as; else BATON_WRITER; else `mcp:<client name>` from the client's initialize. */
  writer?: string | undefined;
}

/**
 * Every tool that writes takes `writer`: the calling agent's name, recorded after the server's
 * writer (`mcp:claude-code/implementer`). A host that serves every agent on one connection
 * (Claude Code: subagents carry the orchestrator's client name) cannot tell them apart itself, so
 * the agent says who it is. It can only add a suffix: no argument turns a call into the server's
 * own writer or any writer outside it, so an owner rule naming `orchestrator` or
 * `mcp:claude-code` exactly is never met by a call that names an agent (docs/mcp.md).
 */
const WRITER_ARGUMENT = {
  type: 'string',
  pattern: '^[A-Za-z0-9_.-]{1,40}$',
  description: 'your agent name, recorded as <server writer>/<name>',
};
const READ_ONLY = new Set(['get', 'history']);

/** What the client is shown: the write tools with `writer` added. */
const SHOWN = TOOLS.map(({ name, description, inputSchema }) => ({
  name,
  description,
  inputSchema: READ_ONLY.has(name)
    ? inputSchema
    : { ...inputSchema, properties: { ...inputSchema.properties, writer: WRITER_ARGUMENT } },
}));

/**
 * One MCP server (the SDK's low-level Server with baton's tools), for any transport: stdio here,
 * streamable HTTP in `baton serve` (serve/mcp-http.ts). `drain` resolves once every tool call
 * still running has been answered.
 */
export function createMcpServer(options: McpOptions): { server: Server; drain: () => Promise<void> } {
  const server = new Server({ name: 'baton', version: options.version }, { capabilities: { tools: {} } });
  const tools = new Map(
    TOOLS.map((tool, i) => [tool.name, { tool, check: argumentCheck(tool.name, SHOWN[i]!.inputSchema) }]),
  );
  // The client names itself, so its name is only ever a suffix: a client calling itself
  // `orchestrator` writes as `mcp:orchestrator` and owns nothing an owner rule gives `orchestrator`.
  // Kept to a short plain token, as history lines print it.
  const writer = () =>
    options.writer ||
    options.env.BATON_WRITER ||
    `mcp:${(server.getClientVersion()?.name ?? '').replace(/[^\w.@-]+/g, '-').slice(0, 64) || 'client'}`;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: SHOWN }));
  const running = new Set<Promise<CallToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const call = callTool(request.params.name, request.params.arguments);
    running.add(call);
    return call.finally(() => running.delete(call));
  });
  const callTool = async (name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> => {
    const entry = tools.get(name);
    try {
      if (!entry)
        throw new BatonError(
          'usage',
          `unknown tool '${name}'; the tools are ${TOOLS.map((tool) => tool.name).join(', ')}`,
        );
      entry.check(args ?? {});
      const { writer: agent, ...rest } = args ?? {};
      const context: ToolContext = {
        cwd: options.cwd,
        env: options.env,
        writer: typeof agent === 'string' ? `${writer()}/${agent}` : writer(),
      };
      const result = await entry.tool.run(rest, context);
      return { content: [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result) }] };
    } catch (error) {
      return toolError(error);
    }
  };
  return {
    server,
    drain: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
      // The SDK sends a result a few microtasks after its handler settles.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

export async function serveMcp(options: McpOptions): Promise<void> {
  const { server, drain } = createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(transport);
  // The client ends the session by closing our stdin; calls still running are answered first.
  process.stdin.once('end', () => void drain().then(() => server.close()));
  await closed;
}

/** `{code, exit, message}` in structuredContent for programs; `code: message` as the text. */
function toolError(error: unknown): CallToolResult {
  const known = isBatonError(error) ? error : fromSystemError(error);
  const code = known?.code ?? 'internal';
  const message = known
    ? (known.message.split('\n')[0] as string)
    : `internal error: ${(error as Error)?.message ?? String(error)}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { code, exit: known?.exitCode ?? 70, message },
  };
}
