/**
 * `baton store migrate|export|import`: what concerns the store rather than one document. The
 * PostgreSQL store is loaded only by these verbs when the chosen store is PostgreSQL.
 */
import { resolve } from 'node:path';
import { BatonError } from '../../core/errors.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { confine, isInside } from '../../fs/confine.js';
import type { CommandIo } from '../../core/command-io.js';
import { importRules } from '../../doc/import-rules.js';
import { readFileBounded } from '../../fs/bounded-read.js';
import { projectContext } from '../../project/project-context.js';
import { chooseStore, exportLines, importLines, migrateStore, openPortable } from '../../stores/index.js';
import { parseCommand } from '../args.js';
import { storeDefinition } from '../definitions.js';

/**
 * The largest export `baton store import` reads (docs/gates.md, "baton itself"): far above a project's state (a
 * document is at most 16 MiB, maxDocumentBytes), yet an endless input (/dev/zero) stops here.
 */
const IMPORT_MAX_BYTES = 128 * 1024 * 1024;

export default async function store(args: string[], cli: CommandIo): Promise<number> {
  const { positionals } = parseCommand(storeDefinition(), args);
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
        else writeExport(project.root, resolve(cli.cwd, file), lines.join(''));
        if (file !== undefined && file !== '-') cli.err(`baton store: exported ${lines.length - 1} documents\n`);
        return 0;
      } finally {
        await portable.close();
      }
    }
    case 'import': {
      if (file === undefined)
        throw new BatonError('usage', "baton store import needs the export's FILE (or - for stdin)");
      const text =
        file === '-'
          ? cli.readStdin(IMPORT_MAX_BYTES)
          : readFileBounded(resolve(cli.cwd, file), IMPORT_MAX_BYTES, `the export ${file}`, 'import fewer documents', {
              stream: true,
            });
      const portable = await openPortable(target);
      try {
        const { documents, revisions } = await importLines(portable.store, text, importRules(project, project.root));
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

/**
 * An export named inside the project must stay inside once symlinks are resolved (a link planted
 * at the name, or a folder on the way, would carry every document out); one named outside is the
 * caller's explicit choice. Either way it is written by rename, which replaces a link at the name
 * and never writes through it or through a hard link.
 */
function writeExport(root: string, path: string, text: string): void {
  if (isInside(root, path)) confine(root, path, 'export file');
  writeFileAtomic(path, text);
}
