// The load generator of the serve suite's "agents at once" rows, in a Node process of its own:
// AGENTS agents, each a keep-alive connection of one in-process HTTP client (node:http's Agent, as
// Claude Code's HTTP hooks ask), calling PreToolUse one after another, all at once. Its own
// process because the suite's, by the time of these rows, holds the garbage of 10,000 library
// updates and two servers' set-up: collecting it paused every in-flight call at once (18-82 ms
// here, measured with a GC observer), which was the rows' p99, not the server's answer. Reported
// with the times: this process's own GC pauses and CPU per call, so what is the client's is seen.
//
// argv[2]: JSON { url, token, allow, deny, agents, perAgent, warmup }; prints JSON on stdout.
import { Agent, request } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';

const { url, token, allow, deny, agents, perAgent, warmup } = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: agents });
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
const run = async (rounds, times) =>
  Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      for (let i = 0; i < rounds; i++) {
        const ms = await ask((i + a) % 2 ? deny : allow);
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
process.stdout.write(
  `${JSON.stringify({
    times,
    cpuPerCall: (used.user + used.system) / 1000 / times.length,
    gc: { count: pauses.length, ms: pauses.reduce((sum, ms) => sum + ms, 0), max: Math.max(0, ...pauses) },
  })}\n`,
);
