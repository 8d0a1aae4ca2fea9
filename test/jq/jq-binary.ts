import { spawn, spawnSync } from 'node:child_process';

export interface Case {
  expr: string;
  input: string; // JSON text
  args?: { name: string; value: string; json?: boolean }[];
}

/**
 * The instant `now` answers in the differential tests, in seconds (exact in milliseconds). jq's
 * own `now` is its clock, so the binary is given `def now: NOW;` in front of programs that use it:
 * the same program at the same instant must give the same answer.
 */
export const NOW = 1764550000.25;

export const usesNow = (expr: string): boolean => /\bnow\b/.test(expr);

export interface JqResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export function requireJqBinary(): string {
  const r = spawnSync('jq', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(
      'The reference `jq` binary (jq 1.6) is required for the differential tests: install it with `apt-get install jq`.',
    );
  }
  return r.stdout.trim();
}

export function jqArgs(c: Case): string[] {
  const argv = ['-c'];
  for (const a of c.args ?? []) argv.push(a.json ? '--argjson' : '--arg', a.name, a.value);
  // A leading space keeps programs such as `-1` from being read as command-line options.
  argv.push((usesNow(c.expr) ? `def now: ${NOW}; ` : ' ') + c.expr);
  return argv;
}

function runOne(c: Case): Promise<JqResult> {
  return new Promise((resolve) => {
    const child = spawn('jq', jqArgs(c), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, stdout, stderr });
    });
    child.stdin.on('error', () => {
      /* jq exits before reading input on compile errors */
    });
    child.stdin.end(c.input);
  });
}

/** Runs the real binary over all cases, a few processes at a time. */
export async function runJqAll(cases: Case[], parallel = 6): Promise<JqResult[]> {
  const results: JqResult[] = new Array(cases.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await runOne(cases[i] as Case);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}
