/**
 * A scripted stand-in for the Gemini API (generateContent, streamGenerateContent?alt=sse,
 * countTokens), so the real Gemini CLI runs whole sessions offline; every request is kept.
 *
 * Routing is stateless: a request that offers function declarations is the main conversation, and
 * its step is the number of model turns with a function call already in `contents`. Other requests
 * (the CLI's JSON side calls: model router, next-speaker and loop checks) get a small answer and
 * never eat a step.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type GeminiTurn = { call: string; args: Record<string, unknown> } | { text: string };

export interface GeminiModel {
  url: string;
  /** Bodies of the requests that offered tools: the conversation. */
  turns: any[];
  close(): Promise<void>;
}

const offersTools = (body: any): boolean =>
  (body.tools ?? []).some(
    (tool: any) => Array.isArray(tool.functionDeclarations) && tool.functionDeclarations.length > 0,
  );

const stepOf = (body: any): number =>
  (body.contents ?? []).filter(
    (content: any) => content.role === 'model' && (content.parts ?? []).some((part: any) => part.functionCall),
  ).length;

function sideParts(body: any): unknown[] {
  const config = body.generationConfig ?? {};
  if (config.responseMimeType === 'application/json' || config.responseSchema || config.responseJsonSchema)
    return [
      {
        text: JSON.stringify({
          reasoning: 'scripted',
          model_choice: 'flash',
          next_speaker: 'user',
          unproductive_state_confidence: 0,
          unproductive_state_analysis: 'none',
          complexity_reasoning: 'simple',
          complexity_score: 1,
        }),
      },
    ];
  return [{ text: 'ok' }];
}

export async function startGeminiModel(script: GeminiTurn[]): Promise<GeminiModel> {
  const turns: any[] = [];
  let ids = 0;
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
      const match = /models\/[^:/?]+:(streamGenerateContent|generateContent|countTokens)/.exec(req.url ?? '');
      if (!match) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: 'not scripted', status: 'NOT_FOUND' } }));
        return;
      }
      if (match[1] === 'countTokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 10 }));
        return;
      }
      let parts: unknown[];
      if (offersTools(body)) {
        turns.push(body);
        const turn = script[Math.min(stepOf(body), script.length - 1)] ?? { text: 'done' };
        parts =
          'call' in turn
            ? [{ functionCall: { id: `fc_${++ids}`, name: turn.call, args: turn.args } }]
            : [{ text: turn.text }];
      } else {
        parts = sideParts(body);
      }
      const payload = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: 'scripted',
        responseId: `resp_${++ids}`,
      };
      if (match[1] === 'streamGenerateContent') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    turns,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
