/**
 * The Stop hook's board gate (stop.boardGate), the wave barrier generalised: the main agent may
 * not end its turn while board items are open, told which and who holds them; `held` only while
 * agents hold items; a board that cannot be read blocks, naming the fix.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baton } from '../helpers/cli.js';
import { eneoProject } from '../harness/helpers.js';

function block(result: { stdout: string }): string | undefined {
  if (result.stdout.trim() === '') return undefined;
  const out = JSON.parse(result.stdout) as { decision?: string; reason?: string };
  return out.decision === 'block' ? out.reason : undefined;
}

describe('the board gate at Stop', () => {
  it('pending: blocks while items are not done, naming holders and what they wait for; lets the stop through once all are done', (t) => {
    const p = eneoProject({}, { stop: { boardGate: 'pending' } });
    t.after(p.cleanup);
    const work = (...args: string[]) => baton(['work', ...args], { cwd: p.dir, env: p.env });
    assert.equal(block(p.hook('Stop', { session_id: 's1' })), undefined, 'no board, no block');
    work('add', 'api', '--title', 'API');
    work('add', 'e2e', '--title', 'E2E', '--after', 'api');
    work('claim', 'api', '--as', 'agent-1');
    const reason = block(p.hook('Stop', { session_id: 's1' }));
    assert.match(reason ?? '', /2 work-board item\(s\) not done/);
    assert.match(reason ?? '', /api \(API\): held by agent-1 until /);
    assert.match(reason ?? '', /e2e \(E2E\): open, waits for api/);
    assert.match(reason ?? '', /baton work wait api e2e --all/);
    assert.equal(work('done', 'api', '--as', 'agent-1').code, 0);
    assert.equal(work('claim', 'e2e', '--as', 'agent-2').code, 0);
    assert.match(block(p.hook('Stop', { session_id: 's2' })) ?? '', /e2e \(E2E\): held by agent-2/);
    assert.equal(work('done', 'e2e', '--as', 'agent-2').code, 0);
    assert.equal(block(p.hook('Stop', { session_id: 's3' })), undefined);
  });

  it('held: blocks only while an agent holds an item; off (the default) never', (t) => {
    const p = eneoProject({}, { stop: { boardGate: 'held' } });
    t.after(p.cleanup);
    const work = (...args: string[]) => baton(['work', ...args], { cwd: p.dir, env: p.env });
    work('add', 'a', '--title', 'A');
    assert.equal(block(p.hook('Stop', { session_id: 's1' })), undefined, 'open, nobody at work');
    work('claim', 'a', '--as', 'agent-1');
    assert.match(
      block(p.hook('Stop', { session_id: 's1' })) ?? '',
      /still held by agents:\n  • a \(A\): held by agent-1/,
    );
    p.write('baton.config.json', JSON.stringify({}));
    assert.equal(block(p.hook('Stop', { session_id: 's2' })), undefined);
  });

  it('a board that cannot be read blocks, naming the fix', (t) => {
    const p = eneoProject({}, { stop: { boardGate: 'pending' } });
    t.after(p.cleanup);
    baton(['work', 'add', 'a', '--title', 'A'], { cwd: p.dir, env: p.env });
    p.write('.claude/state/board.json', '{ not json');
    assert.match(block(p.hook('Stop', { session_id: 's1' })) ?? '', /work board could not be read .*run baton doctor/s);
  });
});
