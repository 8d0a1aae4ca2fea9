// A claimant process for the board's race tests, run as `node --import tsx claimant.ts <json>`:
// one agent on one machine. It reads commands on stdin and answers each with one line:
//   `claim R`  -> `R won TOKEN` (then, done at once, `R done` or `R refused CODE`) or `R lost`;
//                 a round named `hold...` keeps the claim
//   `done`     -> `done ok` or `done refused CODE` (a late done, after a stall)
// With `url`, the board is on PostgreSQL through a connection of its own (another machine).
import { createInterface } from 'node:readline';
import { Board } from '../../src/board/board.js';
import { isBatonError } from '../../src/core/errors.js';
import { createPostgresStore } from '../../src/stores/postgres/postgres-store.js';

const options = JSON.parse(process.argv[2] ?? '{}') as {
  dir: string;
  name: string;
  lease: number;
  url?: string;
  project?: string;
};
const store = options.url
  ? await createPostgresStore({ url: options.url, root: options.dir, project: options.project ?? '' })
  : undefined;
const board = new Board({ cwd: options.dir, env: {}, ...(store ? { store } : {}) });

async function done(): Promise<string> {
  try {
    await board.done('x', options.name);
    return 'done';
  } catch (error) {
    return `refused ${isBatonError(error) ? error.code : String(error)}`;
  }
}

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const [command, round] = line.split(' ');
  if (command === 'claim') {
    const outcome = await board.claim('x', options.name, options.lease);
    process.stdout.write(outcome.claimed ? `${round} won ${outcome.claim.token}\n` : `${round} lost\n`);
    if (outcome.claimed && !round?.startsWith('hold')) process.stdout.write(`${round} ${await done()}\n`);
  } else if (command === 'done') {
    const answer = await done();
    process.stdout.write(`done ${answer === 'done' ? 'ok' : answer}\n`);
  } else break;
}
await store?.close();
