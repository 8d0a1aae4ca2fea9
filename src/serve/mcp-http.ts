/**
 * `POST|GET|DELETE {url}/mcp`: baton's MCP tools over streamable HTTP (the SDK's
 * StreamableHTTPServerTransport), the same server as `baton mcp` on stdio (mcp/mcp-server.ts): same
 * tools, argument checks and writer rules. serve/server.ts lets a request in first (token, Host,
 * no Origin), so this module only keeps the sessions.
 *
 * One MCP Server per session: the writer is `mcp:<client name>` from that session's initialize,
 * as on stdio, where one process serves one client.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpOptions } from '../mcp/mcp-server.js';

/** Sessions kept at once: a client that never ends its session is dropped, oldest first, past this. */
const MAX_SESSIONS = 32;

export interface McpHttp {
  handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void>;
  close(): Promise<void>;
}

export function mcpOverHttp(options: McpOptions): McpHttp {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; drain: () => Promise<void> }>();

  const open = async (): Promise<StreamableHTTPServerTransport> => {
    const { server, drain } = createMcpServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // One JSON answer per request: no stream left open per call.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, drain });
        for (const [old, session] of sessions) {
          if (sessions.size <= MAX_SESSIONS) break;
          sessions.delete(old);
          void session.transport.close();
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  return {
    async handle(req, res, body) {
      let parsed: unknown;
      if (body !== '') {
        try {
          parsed = JSON.parse(body);
        } catch {
          return refuse(res, 400, -32700, 'Parse error: the body is not JSON');
        }
      }
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known) return known.transport.handleRequest(req, res, parsed);
      if (id === undefined && req.method === 'POST' && isInitializeRequest(parsed))
        return (await open()).handleRequest(req, res, parsed);
      if (id !== undefined) return refuse(res, 404, -32001, 'Session not found: initialize a new one');
      refuse(res, 400, -32000, 'Bad Request: no session; send initialize first');
    },
    async close() {
      for (const { transport, drain } of sessions.values()) {
        await drain();
        await transport.close();
      }
      sessions.clear();
    },
  };
}

function refuse(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
