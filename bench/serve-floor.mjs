// The serve suite's floor: a node:http server that judges nothing. It reads each request's body and
// answers with the bytes and headers `baton serve` answered the same payload with (a deny's JSON for
// the deny payload, empty for the allow), so the 8-agent client does the same work against it. Its
// p99, measured in the same turns as the real servers', is what this client and this machine give
// with no decision at all: the real rows' distance from it is the server's share of the tail.
//
// argv[2]: JSON { deny, denied }: the deny payload and the answer baton gave it. Prints JSON
// { port, pid } on stdout once it listens; ends on SIGTERM.
import { createServer } from 'node:http';

const { deny, denied } = JSON.parse(process.argv[2]);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8') === deny ? denied : '';
    // The headers of serve's send() (src/serve/server.ts), so the client parses as much.
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port, pid: process.pid })}\n`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
