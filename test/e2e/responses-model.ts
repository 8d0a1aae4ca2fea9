/**
 * A scripted stand-in for the OpenAI Responses API (streaming), so the real Codex CLI runs whole
 * sessions offline: hooks fire with real payloads, tools really run, and every request Codex sends
 * is kept for assertions.
 *
 * Routing is stateless, so a retried request gets the same answer: the step answered is the number
 * of model outputs (calls and assistant messages) already in the request's input. Requests that
 * offer no tools (titles, summaries) get a short text and never eat a step.
 *
 * A `spawn_agent` subagent (Codex 0.171, `[features] multi_agent_v2`) gets its task as an
 * `agent_message` item ("Message Type: NEW_TASK / Task name: /root/<name>"): its requests follow
 * the `subagent` script, counted from that item, and the first one can be held until a request of
 * the main conversation contains `holdSubagentUntil`, so the order of the two is fixed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type ResponsesTurn =
  | { call: string; arguments: Record<string, unknown>; namespace?: string }
  | { custom: string; input: string }
  | { text: string };

export interface ResponsesOptions {
  subagent?: ResponsesTurn[];
  holdSubagentUntil?: string;
  /** Input tokens reported for the first answer of the main conversation (10 for every other). */
  firstInputTokens?: number;
}

export interface ResponsesModel {
  url: string;
  /** Bodies of the requests that offered tools: the conversation (a subagent's included). */
  turns: any[];
  close(): Promise<void>;
}

function sse(res: ServerResponse, data: Record<string, unknown>): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

function item(turn: ResponsesTurn, n: number): Record<string, unknown> {
  if ('text' in turn)
    return {
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    };
  if ('custom' in turn)
    return {
      type: 'custom_tool_call',
      id: `ctc_${n}`,
      status: 'completed',
      name: turn.custom,
      input: turn.input,
      call_id: `call_${n}`,
    };
  return {
    type: 'function_call',
    id: `fc_${n}`,
    status: 'completed',
    name: turn.call,
    arguments: JSON.stringify(turn.arguments),
    call_id: `call_${n}`,
    ...(turn.namespace ? { namespace: turn.namespace } : {}),
  };
}

function reply(res: ServerResponse, output: Record<string, unknown>, n: number, inputTokens = 10): void {
  const id = `resp_${n}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, { type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
  sse(res, { type: 'response.output_item.added', output_index: 0, item: output });
  sse(res, { type: 'response.output_item.done', output_index: 0, item: output });
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + 5,
  };
  sse(res, {
    type: 'response.completed',
    response: { id, object: 'response', status: 'completed', output: [output], usage },
  });
  res.end();
}

const isOutput = (entry: any): boolean =>
  entry?.type === 'function_call' ||
  entry?.type === 'custom_tool_call' ||
  (entry?.type === 'message' && entry.role === 'assistant');

const subagentTask = (entry: any): boolean =>
  entry?.type === 'agent_message' && /Message Type: NEW_TASK/.test(JSON.stringify(entry.content));

export async function startResponsesModel(
  script: ResponsesTurn[],
  options: ResponsesOptions = {},
): Promise<ResponsesModel> {
  const turns: any[] = [];
  let released = options.holdSubagentUntil === undefined;
  const held: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      let body: any = {};
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: answered as a side request
      }
      if (req.method !== 'POST' || !/\/responses(\?|$)/.test(req.url ?? '')) {
        res.writeHead(/\/models(\?|$)/.test(req.url ?? '') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
        return;
      }
      if (!Array.isArray(body.tools) || body.tools.length === 0) {
        reply(res, item({ text: 'ok' }, 9000 + turns.length), 9000 + turns.length);
        return;
      }
      turns.push(body);
      const input: any[] = Array.isArray(body.input) ? body.input : [];
      const task = options.subagent ? input.findIndex(subagentTask) : -1;
      if (task < 0) {
        if (!released && text.includes(options.holdSubagentUntil!)) {
          released = true;
          for (const go of held.splice(0)) go();
        }
        const step = input.filter(isOutput).length;
        const tokens = options.firstInputTokens !== undefined && turns.length === 1 ? options.firstInputTokens : 10;
        reply(res, item(script[step] ?? { text: 'done' }, step), step, tokens);
        return;
      }
      const step = input.slice(task).filter(isOutput).length;
      const answer = () => reply(res, item(options.subagent![step] ?? { text: 'done' }, 100 + step), 100 + step);
      if (released) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    turns,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
