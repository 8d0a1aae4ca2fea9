import { writeSync } from 'node:fs';

/**
 * Writes a command's output straight to the file descriptor: creating process.stdout's stream
 * costs a short-lived process ~1 ms. A pipe the host left non-blocking can refuse a large write
 * (EAGAIN); the stream then takes over, and it flushes before the process exits. A reader that went
 * away (`baton history x | head -1`) is not an error: the rest of the output has nowhere to go.
 */
export function writeFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw error;
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
  }
}
