import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasSubstitution } from '../../src/harness/sandbox/wrap.js';

// Gemini CLI 0.61 refuses a shell command with command substitution outside single quotes; baton
// leaves such a command unwrapped (its quoting would hide it from Gemini), so both must agree.
test("hasSubstitution follows Gemini CLI's own test, quote by quote", () => {
  for (const command of ['echo $(date)', 'echo `date`', 'diff <(ls a) b', 'tee >(cat)', 'echo "$(id)"', 'echo "`id`"'])
    assert.equal(hasSubstitution(command), true, command);
  for (const command of [
    "echo '$(date)'",
    "echo '`date`'",
    'echo \\$(date)',
    'echo \\`date\\`',
    'echo "\\$(date)"',
    'echo "<(x)"',
    'cat < (x)',
    'echo $HOME ${PATH}',
    'a > b',
  ])
    assert.equal(hasSubstitution(command), false, command);
});
