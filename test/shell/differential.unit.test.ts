/**
 * baton's shell parser against mvdan-sh (mvdan/sh, the parser behind shfmt; a dev dependency
 * only), as the jq engine is tested against jq: every command of the corpus is parsed by both
 * and reduced to the same summary, one entry per simple command (assignments, words after quote
 * removal, redirections with their fd, operator, target and here-document body) and one per
 * redirected compound command. Expansions show as placeholders; the commands inside them are
 * entries of their own. A command one parser rejects must be rejected by the other.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { Redirect, Script, Word, WordPart } from '../../src/harness/shell/ast.js';
import { parseShell } from '../../src/harness/shell/parser.js';
import { ATTACKS, CONTROLS } from '../harness/gate-corpus.js';
import { SYNTAX } from './syntax-corpus.js';

const sh = createRequire(import.meta.url)('mvdan-sh');
const syntax = sh.syntax;
const OPS: Record<number, string> = {
  54: '>',
  55: '>>',
  56: '<',
  57: '<>',
  58: '<&',
  59: '>&',
  60: '>|',
  61: '<<',
  62: '<<-',
  63: '<<<',
  64: '&>',
  65: '&>>',
};

function oracle(text: string): string[] | 'error' {
  let file: any;
  try {
    file = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(text, '');
  } catch {
    return 'error';
  }
  const out: string[] = [];
  syntax.Walk(file, (node: any) => {
    if (!node || syntax.NodeType(node) !== 'Stmt') return true;
    const cmd = node.Cmd;
    const redirs = (node.Redirs ?? []).map(oracleRedirect);
    const type = cmd ? syntax.NodeType(cmd) : '';
    if (type === 'CallExpr')
      out.push(
        [
          ...(cmd.Assigns ?? []).map(oracleAssign),
          ...(cmd.Args ?? []).map((w: any) => oracleWord(w.Parts, 'u')),
          ...redirs,
        ].join(' | '),
      );
    else if (type === 'DeclClause')
      out.push([cmd.Variant.Value, ...(cmd.Args ?? []).map(oracleAssign), ...redirs].join(' | '));
    else if (!cmd) out.push(redirs.join(' | '));
    else if (redirs.length > 0) out.push(['<compound>', ...redirs].join(' | '));
    return true;
  });
  return out.sort();
}

function oracleAssign(a: any): string {
  if (a.Naked) return a.Name ? a.Name.Value : oracleWord(a.Value.Parts, 'u');
  const value = a.Array
    ? `(${(a.Array.Elems ?? []).map((e: any) => oracleWord(e.Value.Parts, 'u')).join(' ')})`
    : a.Value
      ? oracleWord(a.Value.Parts, 'u')
      : '';
  return `${a.Name.Value}${a.Append ? '+=' : '='}${value}`;
}

function oracleRedirect(r: any): string {
  // mvdan-sh keeps the tabs `<<-` strips (its printer drops them).
  const text = r.Hdoc ? oracleWord(r.Hdoc.Parts, quotedDelimiter(r.Word) ? 'raw' : 'h') : '';
  const body = r.Hdoc ? ` <<${OPS[r.Op] === '<<-' ? text.replace(/^\t+/gm, '') : text}` : '';
  return `${r.N ? r.N.Value : ''}${OPS[r.Op] ?? `op${r.Op}`} ${oracleWord(r.Word.Parts, 'u')}${body}`;
}

function quotedDelimiter(word: any): boolean {
  return (word.Parts as any[]).some((p) => syntax.NodeType(p) !== 'Lit' || /\\/.test(p.Value));
}

function oracleWord(parts: any[], ctx: 'u' | 'd' | 'h' | 'raw'): string {
  return (parts ?? [])
    .map((p: any) => {
      switch (syntax.NodeType(p)) {
        case 'Lit':
          if (ctx === 'raw') return p.Value;
          if (ctx === 'u') return p.Value.replace(/\\\n/g, '').replace(/\\([\s\S])/g, '$1');
          return p.Value.replace(/\\\n/g, '').replace(ctx === 'd' ? /\\([$`"\\])/g : /\\([$`\\])/g, '$1');
        // mvdan-sh keeps the raw text of $'...'; decode the escapes the corpus uses.
        case 'SglQuoted':
          return p.Dollar
            ? p.Value.replace(/\\(x[0-9A-Fa-f]{1,2}|n|t|['"\\])/g, (_m: string, e: string) =>
                e[0] === 'x' ? String.fromCharCode(parseInt(e.slice(1), 16)) : e === 'n' ? '\n' : e === 't' ? '\t' : e,
              )
            : p.Value;
        case 'DblQuoted':
          return oracleWord(p.Parts, 'd');
        case 'ParamExp':
          return `\${${p.Param ? p.Param.Value : ''}}`;
        case 'CmdSubst':
          return '$(…)';
        case 'ArithmExp':
          return '$((…))';
        case 'ProcSubst':
          return 'proc(…)';
        case 'ExtGlob':
          return 'extglob';
        default:
          return `?${syntax.NodeType(p)}`;
      }
    })
    .join('');
}

function mine(text: string): string[] | 'error' {
  let script: Script;
  try {
    script = parseShell(text);
  } catch {
    return 'error';
  }
  const out: string[] = [];
  walkScript(script, out);
  return out.sort();
}

function walkScript(script: Script, out: string[]): void {
  for (const item of script)
    for (const pipeline of item.pipelines) for (const command of pipeline.commands) walkCommand(command, out);
}

function walkCommand(command: Script[number]['pipelines'][number]['commands'][number], out: string[]): void {
  const nested = (words: Word[]) => words.forEach((w) => walkParts(w.parts, out));
  if (command.type === 'function') return walkCommand(command.body, out);
  const redirects = command.redirects.map((r) => mineRedirect(r, out));
  switch (command.type) {
    case 'simple': {
      const assigns = command.assigns.map(
        (a) =>
          `${a.name}${a.append ? '+=' : '='}${a.array ? `(${a.array.map(mineWord).join(' ')})` : a.value ? mineWord(a.value) : ''}`,
      );
      command.assigns.forEach((a) => nested([...(a.value ? [a.value] : []), ...(a.array ?? [])]));
      nested(command.words);
      out.push([...assigns, ...command.words.map(mineWord), ...redirects].join(' | '));
      return;
    }
    case 'test':
      nested(command.words);
      break;
    case 'arith':
      break;
    case 'subshell':
    case 'group':
      walkScript(command.body, out);
      break;
    case 'if':
      for (const clause of command.clauses) {
        walkScript(clause.cond, out);
        walkScript(clause.body, out);
      }
      if (command.otherwise) walkScript(command.otherwise, out);
      break;
    case 'loop':
      walkScript(command.cond, out);
      walkScript(command.body, out);
      break;
    case 'for':
      nested(command.items ?? []);
      walkScript(command.body, out);
      break;
    case 'case':
      nested([command.word]);
      for (const item of command.items) {
        nested(item.patterns);
        walkScript(item.body, out);
      }
      break;
  }
  if (redirects.length > 0) out.push(['<compound>', ...redirects].join(' | '));
}

function walkParts(parts: WordPart[], out: string[]): void {
  for (const part of parts) {
    if (part.type === 'command' || part.type === 'process') walkScript(part.script, out);
    else if (part.type === 'dquote') walkParts(part.parts, out);
    else if (part.type === 'param' && part.arg) walkParts(part.arg.parts, out);
  }
}

function mineRedirect(r: Redirect, out: string[]): string {
  walkParts(r.target.parts, out);
  if (r.heredoc && !r.heredocQuoted) walkParts(r.heredoc.parts, out);
  const body = r.heredoc ? ` <<${r.heredocQuoted ? r.heredoc.text : renderParts(r.heredoc.parts)}` : '';
  return `${r.fd}${r.op} ${mineWord(r.target)}${body}`;
}

function mineWord(word: Word): string {
  return renderParts(word.parts);
}

function renderParts(parts: WordPart[]): string {
  return parts
    .map((p) => {
      switch (p.type) {
        case 'lit':
        case 'quoted':
          return p.value;
        case 'dquote':
          return renderParts(p.parts);
        case 'param':
          return `\${${p.name.replace(/\[.*$/, '')}}`;
        case 'command':
          return '$(…)';
        case 'arith':
          return '$((…))';
        case 'process':
          return 'proc(…)';
        case 'extglob':
          return 'extglob';
      }
    })
    .join('');
}

describe('the shell parser agrees with mvdan-sh', () => {
  // The 'bounds' attacks nest past baton's documented limit on purpose (it refuses them; mvdan-sh has none).
  const corpus = [
    ...new Set([
      ...SYNTAX,
      ...ATTACKS.filter((a) => a.what !== 'bounds').map((a) => a.command),
      ...CONTROLS.map((c) => c.command),
    ]),
  ];
  it(`on ${corpus.length} commands (syntax cases and the gate corpus)`, () => {
    const disagreements: string[] = [];
    for (const text of corpus) {
      const want = oracle(text);
      const got = mine(text);
      if (JSON.stringify(want) !== JSON.stringify(got))
        disagreements.push(
          `${JSON.stringify(text)}\n  mvdan-sh: ${JSON.stringify(want)}\n  baton:    ${JSON.stringify(got)}`,
        );
    }
    assert.equal(disagreements.length, 0, disagreements.join('\n'));
  });
});
