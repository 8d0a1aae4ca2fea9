// docs/cli.md, from the command definitions (src/cli/definitions.ts), the same entries the parser
// and `baton help` use. Written by `npm run generate` (scripts/generate.ts), whose test fails when
// the committed page is out of date.
import { allCommands, EXIT_CODES, GLOBAL_OPTIONS, optionLabel, usageLine } from '../src/cli/definitions.js';
import { ENVIRONMENT } from '../src/core/runtime-options.js';

export function cliReference(): string {
  const out = [
    '# CLI reference',
    '',
    'Generated from `src/cli/definitions.ts` by `npm run generate`: the parser and',
    '`baton help` use the same definitions. Every command and subcommand prints its usage with',
    '`baton help CMD [SUB]`, `baton CMD [SUB] --help` or `-h` (stdout, exit 0). A usage error prints one',
    'line saying what was wrong, then the usage line, and exits 2.',
    '',
    `Exit codes: ${EXIT_CODES}.`,
    '',
    'Global options come before the command (`baton --store URL get FILE`):',
    '',
    '| Option | |',
    '| --- | --- |',
    ...GLOBAL_OPTIONS.map((option) => `| \`${optionLabel(option)}\` | ${option.help.replaceAll('|', '\\|')} |`),
    '',
    'Environment variables that tune a run, parsed in one place (`src/core/runtime-options.ts`); a number',
    'that is empty, malformed or not positive is ignored:',
    '',
    '| Variable | |',
    '| --- | --- |',
    ...ENVIRONMENT.map((entry) => `| \`${entry.name}\` | ${entry.help.replaceAll('|', '\\|')} |`),
    '',
    '| Command | What it does |',
    '| --- | --- |',
    ...allCommands().map((def) => `| [\`${def.name}\`](#baton-${def.name}) | ${def.summary} |`),
  ];
  for (const def of allCommands()) {
    out.push(
      '',
      `## baton ${def.name}`,
      '',
      `${def.summary[0]?.toUpperCase()}${def.summary.slice(1)}.`,
      '',
      '```text',
      usageLine(def)
        .replace(/^usage: /, '')
        .replace(/^ {7}/gm, ''),
      '```',
    );
    if (def.details) out.push('', def.details);
    if (def.exitCodes) out.push('', `Exit codes: ${def.exitCodes}.`);
    if (def.subcommands) {
      out.push(
        '',
        '| Subcommand | |',
        '| --- | --- |',
        ...Object.values(def.subcommands).map(
          (sub) => `| \`baton ${def.name} ${sub.usage.replaceAll('|', '\\|')}\` | ${sub.summary} |`,
        ),
      );
    }
    const options = def.options.filter((option) => !option.hidden);
    if (options.length > 0) {
      out.push(
        '',
        '| Option | |',
        '| --- | --- |',
        ...options.map(
          (option) => `| \`${optionLabel(option).replaceAll('|', '\\|')}\` | ${option.help.replaceAll('|', '\\|')} |`,
        ),
      );
    }
  }
  return `${out.join('\n')}\n`;
}
