/** Files named in an apply_patch envelope (`*** Add File: x`, `*** Update File: x`, `*** Move to: x`, ...). */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    const path = (match[1] ?? match[2] ?? '').trim();
    if (path) paths.push(path);
  }
  return paths;
}
