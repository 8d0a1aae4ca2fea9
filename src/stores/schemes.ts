/**
 * The registry's names: each backend's URL schemes, how help and errors write them, and whether
 * hooks fetch documents through it. Plain data with no imports, so the CLI's main and the hook
 * front read it without loading any store; registry.ts gives each kind its behaviour (open,
 * export/import, migrate), and its type makes a kind without one a compile error. `config` is
 * what baton.config.json's `store` accepts (a regular expression) and how its error lists it:
 * `npm run generate` writes both into schemas/baton.config.schema.json.
 */
export const SCHEMES = [
  {
    kind: 'file',
    schemes: ['', 'file:'],
    spelled: 'file: (the default)',
    hooksFetch: false,
    config: { pattern: 'file:(//)?', shown: ['file:'] },
  },
  // Fetched: the process's own memory holds the documents, not the files on disk.
  {
    kind: 'memory',
    schemes: ['memory:'],
    spelled: 'memory:',
    hooksFetch: true,
    config: { pattern: 'memory:', shown: ['memory:'] },
  },
  {
    kind: 'postgres',
    schemes: ['postgres:', 'postgresql:'],
    spelled: 'postgres://USER@HOST/DB (or postgresql://)',
    // Another machine may have committed since this one's files were written.
    hooksFetch: true,
    config: { pattern: 'postgres(ql)?://.*', shown: ['postgres://...', 'postgresql://...'] },
  },
] as const;

export type StoreKind = (typeof SCHEMES)[number]['kind'];

/** Every scheme as help and errors write it. */
export const STORE_SCHEMES = SCHEMES.map((entry) => entry.spelled).join(', ');

/** A URL's scheme (`postgres:`), or '' for none; the rest is not shown, as it may hold a password. */
export function storeScheme(url: string | undefined): string {
  if (!url) return '';
  return /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase().concat(':') ?? url;
}

/** The kind a URL names, or undefined for an unknown scheme. */
export function kindOf(url: string | undefined): StoreKind | undefined {
  const scheme = storeScheme(url);
  return SCHEMES.find((entry) => (entry.schemes as readonly string[]).includes(scheme))?.kind;
}

/**
 * Whether a hook reads the documents its rules need through the store `url` names before judging
 * (the files on this machine are not the documents). An unknown scheme: yes, so its error is reported.
 */
export function hooksFetch(url: string | undefined): boolean {
  const kind = kindOf(url);
  return kind === undefined || SCHEMES.find((entry) => entry.kind === kind)!.hooksFetch;
}
