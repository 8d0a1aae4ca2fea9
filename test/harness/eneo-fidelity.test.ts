import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decision, eneoProject, startTask } from './helpers.js';

// The Eneo items of issue 9 that are not gates: texts, the prompt audit, Stop and the deny protocol.
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const PROMPTS = '.claude/stats/prompts.jsonl';

describe('texts', () => {
  it('a command-only rule without a message names its pattern, not "Bash on ."', () => {
    const p = eneoProject({}, { profile: 'eneo', rules: [{ id: 'no-force-push', on: 'bash', command: 'git\\s+push\\s+.*--force' }] });
    try {
      const { kind, reason } = decision(p.hook('PreToolUse', bash('git push origin main --force')));
      assert.equal(kind, 'deny');
      assert.doesNotMatch(reason, / on \./);
      assert.match(reason, /Blocked by baton rule 'no-force-push': this Bash command matches \/git\\s\+push\\s\+\.\*--force\//);
    } finally {
      p.cleanup();
    }
  });
});

describe('prompt audit', () => {
  it('counts user prompts, not the <task-notification> of a finished background agent', () => {
    const p = eneoProject();
    try {
      startTask(p);
      assert.equal(p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'fix the login bug' }).code, 0);
      const notification = '<task-notification>\n<task-id>b1x2</task-id>\n<status>completed</status>\n<summary>Agent "tests" completed</summary>\n<result>DONE|/tmp/a.md</result>\n</task-notification>';
      const r = p.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: notification });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
      const lines = p.read(PROMPTS).trim().split('\n');
      assert.equal(lines.length, 1);
      assert.equal(JSON.parse(lines[0] as string).len, 'fix the login bug'.length);
      assert.match(readFileSync(join(p.dir, '.debug.log'), 'utf8'), /task notification; not counted/);
      // A user who merely mentions the tag is still a user.
      p.hook('UserPromptSubmit', { prompt: 'why does <task-notification> show up in my log?' });
      assert.equal(p.read(PROMPTS).trim().split('\n').length, 2);
      assert.ok(existsSync(join(p.dir, PROMPTS)));
    } finally {
      p.cleanup();
    }
  });
});
