/**
 * Interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`, awk programs...): baton
 * cannot follow what a program does, so it looks for the calls that may write (open for writing,
 * write/unlink/rename/copy, spawning a process). A one-liner with none of them, such as one that
 * only reads a fixture, is not reported; one with any of them is reported as opaque, and the
 * policy denies it only when the command also names a protected path. A program run from a file
 * (`python tools/gen.py`) is a program like any other: its internal writes are a documented limit.
 */
import type { Stdin } from './analyze.js';

interface Program {
  /** Options whose next word is the program text. */
  code: RegExp;
  /** Options whose next word is something else. */
  valued?: RegExp;
  /** The first operand is the program (awk). */
  firstOperand?: boolean;
}

const PYTHON: Program = { code: /^-[A-Za-z]*c$/, valued: /^-[WXQm]$/ };
const NODE: Program = { code: /^(-e|--eval|-p|--print)$/, valued: /^(-r|--require|--import|--loader)$/ };
const PERL: Program = { code: /^-[A-Za-z0-9]*[eE]$/, valued: /^-[IMm]$/ };
const PROGRAMS: [RegExp, Program][] = [
  [/^(python|pypy)[0-9.]*$/, PYTHON],
  [/^(node|nodejs|bun|tsx|ts-node)$/, NODE],
  [/^deno$/, { code: /^eval$/ }],
  [/^perl[0-9.]*$/, PERL],
  [/^ruby[0-9.]*$/, { code: /^-[A-Za-z]*e$/, valued: /^-[Ir]$/ }],
  [/^php[0-9.]*$/, { code: /^-r$/ }],
  [/^lua[0-9.]*$/, { code: /^-e$/ }],
  [/^(Rscript|osascript)$/, { code: /^-e$/ }],
  [/^(pwsh|powershell)$/, { code: /^(-c|-Command)$/i }],
  [/^[gmn]?awk$/, { code: /^$/, valued: /^-[vfF]$/, firstOperand: true }],
];

// Calls that may write, per language; `replace`, `remove`, `copy` alone are not here, since
// str.replace and list.remove are common in one-liners that only read.
const WRITES = new RegExp(
  [
    String.raw`\bopen\w*\s*\(\s*[^,()]+,\s*(?!['"][rbt]+['"])`, // open(path, mode) unless the mode only reads
    String.raw`\bos\.(remove|unlink|rename|replace|rmdir|removedirs|truncate|system|popen|exec\w*|spawn\w*|symlink|link|chmod|chown|makedirs|mkdir|utime)\b`,
    String.raw`\b(shutil|subprocess|child_process|FileUtils|file_put_contents|fopen|fwrite|shell_exec|passthru|execSync|execFile\w*|spawn\w*|system|unlink\w*|rmtree|rmSync|rmdir\w*|rename\w*|truncate\w*|symlink\w*|writeFile\w*|appendFile\w*|createWriteStream|copyFile\w*|cpSync|mkdir\w*|makedirs|chmod\w*|utimes\w*|inplace|eval|exec)\b`,
    String.raw`\b(File|IO)\.(write|open|delete|unlink|rename|symlink)`,
    String.raw`\bopen\s+\w+\s*,\s*['"]?\s*[+>|]`, // perl: open F, ">file"
    String.raw`\.(write\w*|touch|unlink|rmdir|mkdir|rename|symlink_to|hardlink_to|rm|cp)\s*\(`,
    String.raw`\bprint[^;]*>|\|\s*getline|\bprint\s*\||\bqx\b|\x60`, // awk/perl output redirection, pipes, backquotes
  ].join('|'),
);

export function isInterpreter(name: string): boolean {
  return PROGRAMS.some(([re]) => re.test(name));
}

export function interpreterRisk(name: string, args: string[], stdin: Stdin): string | undefined {
  const program = PROGRAMS.find(([re]) => re.test(name))?.[1];
  if (!program) return undefined;
  let code: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (program.code.test(arg) && !program.firstOperand) {
      code = args[i + 1] ?? '';
      break;
    }
    if (program.valued?.test(arg)) {
      if (name.endsWith('awk') && arg === '-f') return undefined;
      i++;
      continue;
    }
    if (program.firstOperand && !arg.startsWith('-')) {
      code = arg;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (arg !== '-') return undefined;
      break;
    }
  }
  if (code === undefined) {
    if (stdin.text !== undefined) code = stdin.text;
    else if (stdin.from) return `${name} reading its program from ${stdin.from}`;
    else return undefined;
  }
  return WRITES.test(code) ? `a ${name} one-liner that may write files` : undefined;
}
