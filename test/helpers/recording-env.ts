/**
 * An environment that records each variable name read (get or `in`), so a test can hold a code
 * path to the names it may read. With `enumeration`, listing its names records `(every name)`.
 */
export function recordingEnv<T extends NodeJS.ProcessEnv>(
  env: T,
  { enumeration = false }: { enumeration?: boolean } = {},
): { env: T; read: Set<string> } {
  const read = new Set<string>();
  const proxy = new Proxy(env, {
    get(target, name, receiver) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name, receiver) as unknown;
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.has(target, name);
    },
    ...(enumeration
      ? {
          ownKeys(target: T) {
            read.add('(every name)');
            return Reflect.ownKeys(target);
          },
        }
      : {}),
  });
  return { env: proxy, read };
}
