/**
 * A scripted stand-in for the Anthropic Messages API, so the real Claude Code CLI runs whole
 * sessions offline: hooks fire with real payloads, tools really run, and every request Claude Code
 * sends (with whatever context the hooks injected) is kept for assertions.
 *
 * Only requests that offer tools advance the script: those are the main conversation. Side
 * requests (titles, summaries, token counts) get a short text answer and never eat a scripted turn.
 * A subagent gets its own script: a request whose first user message holds `[[agent:NAME]]` (put
 * there by the main script's Agent call) is answered from `agents[NAME]`, at the step its count of
 * assistant messages so far gives, so the main script's order is not disturbed.
 *
 * A step may also be a function of the request it answers (its conversation so far): a subagent
 * can act on what its last tool call printed (the item it claimed), and the test can hold an
 * answer until other agents have reached a point, which makes an interleaving of parallel agents
 * one the script chose rather than one the machine's load chose.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type ToolCall = { tool: string; input: Record<string, unknown> };
/** One assistant message: a tool call, several at once (Claude Code runs them in parallel), or text. */
export type Turn = ToolCall | { tools: ToolCall[] } | { text: string };
/** A turn, or one decided (and maybe waited for) when its request arrives. */
export type Step = Turn | ((body: any) => Turn | Promise<Turn>);

export interface LoggedRequest {
  url: string;
  body: any;
}

export interface MockModel {
  url: string;
  requests: LoggedRequest[];
  /** Main-conversation requests only (the ones that offered tools). */
  turns(): LoggedRequest[];
  close(): Promise<void>;
}

function sse(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function answer(res: ServerResponse, body: any, step: Turn, id: number): void {
  const calls = 'tools' in step ? step.tools : 'tool' in step ? [step] : [];
  // One call keeps the id toolu_mock_<id>; several get toolu_mock_<id>_<n>.
  const blocks: Record<string, unknown>[] =
    'text' in step
      ? [{ type: 'text', text: step.text }]
      : calls.map((call, n) => ({
          type: 'tool_use',
          id: calls.length === 1 ? `toolu_mock_${id}` : `toolu_mock_${id}_${n + 1}`,
          name: call.tool,
          input: call.input,
        }));
  const stop = 'text' in step ? 'end_turn' : 'tool_use';
  const message = {
    id: `msg_mock_${id}`,
    type: 'message',
    role: 'assistant',
    model: body?.model ?? 'mock',
    content: [] as unknown[],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: blocks, stop_reason: stop }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  sse(res, 'message_start', { message });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sse(res, 'content_block_start', { index, content_block: { ...block, input: {} } });
      sse(res, 'content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, 'content_block_stop', { index });
  });
  sse(res, 'message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
  sse(res, 'message_stop', {});
  res.end();
}

/** The tool calls of one conversation so far, in order, each with the result it got (if any yet). */
export function callsOf(body: any): { name: string; input: any; text: string | undefined; isError: boolean }[] {
  const calls: { id: string; name: string; input: any }[] = [];
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.push({ id: block.id, name: block.name, input: block.input });
      if (block.type === 'tool_result')
        results.set(block.tool_use_id, {
          text: textOf(block.content) || String(block.content ?? ''),
          isError: block.is_error === true,
        });
    }
  }
  return calls.map(({ id, name, input }) => ({
    name,
    input,
    text: results.get(id)?.text,
    isError: results.get(id)?.isError ?? false,
  }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (block?.type === 'text' ? String(block.text) : '')).join('\n');
}

/** The subagent a request belongs to, by the marker in its first user message. */
function agentOf(body: any): string | undefined {
  const first = (body.messages ?? []).find((message: any) => message.role === 'user');
  return /\[\[agent:([a-z0-9-]+)\]\]/.exec(textOf(first?.content))?.[1];
}

/** `beforeTurn(n)` runs before the n-th main-conversation turn (from 1) is answered. */
export async function startMockModel(
  script: Step[],
  agents: Record<string, Step[]> = {},
  options: { beforeTurn?: (n: number) => void } = {},
): Promise<MockModel> {
  const requests: LoggedRequest[] = [];
  let turn = 0;
  let served = 0;
  // A step function may wait (for other agents), so each request is answered on its own.
  const reply = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
    let body: any = {};
    try {
      body = JSON.parse(raw);
    } catch {
      // not JSON: logged as-is and answered below
    }
    const url = req.url ?? '';
    requests.push({ url, body });
    if (!url.startsWith('/v1/messages') || url.includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 1 }));
      return;
    }
    const conversation = Array.isArray(body.tools) && body.tools.length > 0;
    const agent = conversation ? agentOf(body) : undefined;
    const own = agent === undefined ? undefined : agents[agent];
    let step: Step = { text: 'ok' };
    if (own) {
      const index = (body.messages ?? []).filter((message: any) => message.role === 'assistant').length;
      step = own[Math.min(index, own.length - 1)]!;
    } else if (conversation) {
      options.beforeTurn?.(turn + 1);
      step = script[Math.min(turn++, script.length - 1)]!;
    }
    if (typeof step === 'function') {
      try {
        step = await step(body);
      } catch (error) {
        // The conversation ends with the reason in its text, and the test's assertions fail on it.
        step = { text: `mock step failed: ${(error as Error).stack}` };
      }
    }
    answer(res, body, step, ++served);
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => void reply(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
