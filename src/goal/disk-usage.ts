import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Disk usage as `du` counts it: allocated blocks of every entry (folders included), hard links
 * once, symlinks not followed. Unreadable entries count as nothing.
 */
export function diskUsageBytes(path: string, seen: Set<string> = new Set()): number {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return 0;
  }
  if (stat.nlink > 1 && !stat.isDirectory()) {
    const id = `${stat.dev}:${stat.ino}`;
    if (seen.has(id)) return 0;
    seen.add(id);
  }
  let total = stat.blocks !== undefined ? stat.blocks * 512 : stat.size;
  if (stat.isDirectory()) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      names = [];
    }
    for (const name of names) total += diskUsageBytes(join(path, name), seen);
  }
  return total;
}

/** `du -h` style: 1024-based units, one decimal below 10, rounded up (`12K`, `2.9M`). */
export function humanSize(bytes: number): string {
  const units = ['K', 'M', 'G', 'T', 'P'];
  if (bytes < 1024) return String(bytes);
  let value = bytes;
  for (const unit of units) {
    value /= 1024;
    if (value < 1024 || unit === 'P') {
      if (value < 10) {
        const tenths = Math.ceil(value * 10) / 10;
        return tenths >= 10 ? `10${unit}` : `${tenths.toFixed(1)}${unit}`;
      }
      return `${Math.ceil(value)}${unit}`;
    }
  }
  return `${bytes}`;
}
