// The load generator of the serve suite's "agents at once" rows, in a Node process of its own:
// AGENTS agents, each a keep-alive connection of one in-process HTTP client (node:http's Agent, as
// Claude Code's HTTP hooks ask), calling PreToolUse one after another, all at once. Its own
// process because the suite's, by the time of these rows, holds the garbage of 10,000 library
// updates and two servers' set-up: collecting it paused every in-flight call at once (18-82 ms
// here, measured with a GC observer), which was the rows' p99, not the server's answer. Reported
// with the times: this process's own GC pauses and CPU per call, so what is the client's is seen.
// With `client: "raw"` each agent is a bare keep-alive socket writing a request built once and
// reading the answer's length: the lightest client there is, for how much of the tail is the HTTP
// client's (it spends a fraction of node:http's CPU per call and allocates little).
//
// argv[2]: JSON { url, token, allow, deny, agents, perAgent, warmup, client }; prints JSON on stdout.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';

const { url, token, allow, deny, agents, perAgent, warmup, client } = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: agents });
const sockets = [];
/** One agent's bare keep-alive connection: a call writes the request and resolves when the answer's body is in. */
const rawAgent = () => {
  const { hostname, port } = new URL(url);
  const built = new Map(
    [allow, deny].map((body) => [
      body,
      Buffer.from(
        `POST /hooks/PreToolUse HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    ]),
  );
  const socket = connect(Number(port), hostname);
  socket.setNoDelay(true);
  sockets.push(socket);
  let seen = Buffer.alloc(0);
  let waiting;
  socket.on('data', (chunk) => {
    seen = seen.length ? Buffer.concat([seen, chunk]) : chunk;
    const end = seen.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = seen.toString('latin1', 0, end);
    if (seen.length - end - 4 < Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)) return;
    seen = Buffer.alloc(0);
    const done = waiting;
    waiting = undefined;
    if (/^HTTP\/1\.1 200 /.test(head)) done.resolve(Number(process.hrtime.bigint() - done.began) / 1e6);
    else done.reject(new Error(head.split('\r\n')[0]));
  });
  socket.on('error', (error) => waiting?.reject(error));
  return (body) =>
    new Promise((resolve, reject) => {
      waiting = { resolve, reject, began: process.hrtime.bigint() };
      socket.write(built.get(body));
    });
};
const ask = (body) =>
  new Promise((resolve, reject) => {
    const began = process.hrtime.bigint();
    const req = request(
      `${url}/hooks/PreToolUse`,
      { method: 'POST', agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Number(process.hrtime.bigint() - began) / 1e6)
            : reject(new Error(`status ${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const lanes = Array.from({ length: agents }, () => (client === 'raw' ? rawAgent() : ask));
const run = async (rounds, times) =>
  Promise.all(
    lanes.map(async (call, a) => {
      for (let i = 0; i < rounds; i++) {
        const ms = await call((i + a) % 2 ? deny : allow);
        times?.push(ms);
      }
    }),
  );

// A session's client is warm: its code compiled (cold, it spent about twice the CPU per call, on the
// cores the server runs on), its connections open.
await run(warmup);
const pauses = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push(entry.duration);
});
observer.observe({ entryTypes: ['gc'] });
const times = [];
const cpu = process.cpuUsage();
await run(perAgent, times);
const used = process.cpuUsage(cpu);
// Entries are delivered after the tick that made them: give the last one its turn.
await new Promise((resolve) => setImmediate(resolve));
observer.disconnect();
agent.destroy();
for (const socket of sockets) socket.destroy();
process.stdout.write(
  `${JSON.stringify({
    times,
    cpuPerCall: (used.user + used.system) / 1000 / times.length,
    gc: { count: pauses.length, ms: pauses.reduce((sum, ms) => sum + ms, 0), max: Math.max(0, ...pauses) },
  })}\n`,
);
