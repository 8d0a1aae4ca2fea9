// A client process for the PostgreSQL load tests, run as `node --import tsx client.ts <mode> <json>`.
// `update`: runs `writers` concurrent updates on one document, each appending its own id; prints
// each id once its update is acknowledged, and each failure's code on stderr.
// `hold`: locks the document's row inside a transaction, prints `locked`, and waits to be killed.
import { Doc } from '../../src/doc/doc.js';
import { isBatonError } from '../../src/core/errors.js';
import { createPostgresStore } from '../../src/stores/postgres/postgres-store.js';

const [mode, raw] = process.argv.slice(2);
const options = JSON.parse(raw ?? '{}') as {
  url: string;
  root: string;
  project: string;
  key: string;
  name: string;
  writers: number;
};
const store = await createPostgresStore({ url: options.url, root: options.root, project: options.project });

if (mode === 'hold') {
  await store.transact(options.key, async () => {
    process.stdout.write('locked\n');
    await new Promise(() => undefined);
    return { result: undefined };
  });
} else {
  const doc = new Doc(store, options.key, options.root, { writer: options.name });
  await Promise.all(
    Array.from({ length: options.writers }, async (_, i) => {
      const id = `${options.name}-${i}`;
      try {
        await doc.update('.ids += [$id] | .n += 1', { id });
        process.stdout.write(`${id}\n`);
      } catch (error) {
        process.stderr.write(`${id} ${isBatonError(error) ? error.code : 'other'}: ${(error as Error).message}\n`);
      }
    }),
  );
  await store.close();
}
