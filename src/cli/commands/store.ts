/**
 * `baton store migrate|export|import`: what concerns the store rather than one document. The
 * PostgreSQL store is loaded only by these verbs when the chosen store is PostgreSQL.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BatonError } from '../../core/errors.js';
import type { CommandIo } from '../../core/command-io.js';
import { projectContext } from '../../project/project-context.js';
import { chooseStore, exportLines, importLines, migrateStore, openPortable } from '../../stores/index.js';
import { parseCommand } from '../args.js';
import { COMMANDS } from '../definitions.js';

export default async function store(args: string[], cli: CommandIo): Promise<number> {
  const { positionals } = parseCommand(COMMANDS.store!, args);
  const [verb, file] = positionals as [string, string | undefined];
  const project = projectContext({ cwd: cli.cwd, env: cli.env });
  const choice = chooseStore(cli.env, () => project.config);
  const target = { url: choice.url, root: project.root, project: choice.project };
  switch (verb) {
    case 'migrate': {
      const { from, to } = await migrateStore(choice.url);
      cli.out(from === to ? `schema version ${to}: up to date\n` : `schema version ${from} -> ${to}\n`);
      return 0;
    }
    case 'export': {
      const portable = await openPortable(target);
      try {
        const lines: string[] = [];
        for await (const line of exportLines(portable.store, portable.kind)) lines.push(`${line}\n`);
        if (file === undefined || file === '-') cli.out(lines.join(''));
        else writeFileSync(resolve(cli.cwd, file), lines.join(''));
        if (file !== undefined && file !== '-') cli.err(`baton store: exported ${lines.length - 1} documents\n`);
        return 0;
      } finally {
        await portable.close();
      }
    }
    case 'import': {
      if (file === undefined)
        throw new BatonError('usage', "baton store import needs the export's FILE (or - for stdin)");
      const text = file === '-' ? cli.readStdin() : readFileSync(resolve(cli.cwd, file), 'utf8');
      const portable = await openPortable(target);
      try {
        const { documents, revisions } = await importLines(portable.store, text);
        cli.out(`imported ${documents} documents, ${revisions} revisions\n`);
        return 0;
      } finally {
        await portable.close();
      }
    }
    default:
      throw new BatonError('usage', `unknown store command '${verb}'; use migrate, export or import`);
  }
}
