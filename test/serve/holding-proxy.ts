/**
 * A TCP proxy to the store whose traffic in one direction can be held back, then let go in order:
 * the store's answers (`hold()`, a check answered and delayed on its way back) or the client's
 * queries (`hold('queries')`, a check sent but not yet read by the database).
 */
import { connect, createServer, type Socket } from 'node:net';

export async function holdingProxy(target: URL) {
  let held: { socket: Socket; chunk: Buffer }[] | undefined;
  let direction: 'answers' | 'queries' = 'answers';
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => (client.destroy(), upstream.destroy()));
    }
    client.on('data', (chunk: Buffer) =>
      held && direction === 'queries' ? held.push({ socket: upstream, chunk }) : upstream.write(chunk),
    );
    upstream.on('data', (chunk: Buffer) =>
      held && direction === 'answers' ? held.push({ socket: client, chunk }) : client.write(chunk),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.href);
  url.port = String(port);
  return {
    url: url.href,
    hold: (what: 'answers' | 'queries' = 'answers') => ((direction = what), (held = [])),
    /** Until something is held. */
    holding: async () => {
      while (held && held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    release: () => {
      const chunks = held ?? [];
      held = undefined;
      for (const { socket, chunk } of chunks) socket.write(chunk);
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
