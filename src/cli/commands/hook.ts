import type { Cli } from '../context.js';

/**
 * `baton hook <Event> [--profile NAME]`: reads one payload from stdin and hands it to the profile.
 * Profiles are lazy-imported so an event a profile ignores costs only this file. A hook never fails
 * its host on bad input: unknown profiles and garbage exit 0 silently.
 */
type Profile = { default: (event: string, stdin: string, cli: Cli) => Promise<number> };

const PROFILES: Record<string, () => Promise<Profile>> = {
  orchestrate: () => import('../../harness/profiles/orchestrate.js'),
};

export default async function hook(args: string[], cli: Cli): Promise<number> {
  const event = args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '--profile' && args[i - 1] !== '--host');
  const profileAt = args.indexOf('--profile');
  const profile = profileAt >= 0 ? args[profileAt + 1] : undefined;
  const stdin = cli.readStdin();
  const load = profile === undefined ? undefined : PROFILES[profile];
  if (!event || !load) return 0;
  return (await load()).default(event, stdin, cli);
}
