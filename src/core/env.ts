/** A numeric environment setting; unset, empty or malformed means the default. */
export function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  return Number.isFinite(value) ? value : fallback;
}
