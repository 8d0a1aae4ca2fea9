/**
 * The files a shell command writes, found heuristically as the original firewall did (spec 8.5):
 * the words after a write operator (`sed -i`, `tee`, `>`, `>>`, `cat >`) up to the end of that
 * command. Baton splits the command at `|`, `;`, `&&`, `||` and newlines first, so
 * `pytest > log.txt; cat tests/x` no longer counts `tests/x` as written. It still catches
 * redirects only, not `python -c "open(...)"`.
 */
const WRITE_OPERATOR = /\bsed\s+(?:-\S*\s+)*?-i|tee|>>?/g;
const SEGMENT_BREAK = /\|\|?|;|&&|\n/;

export function writeTargets(command: string): string[] {
  const targets: string[] = [];
  for (const segment of command.split(SEGMENT_BREAK)) {
    WRITE_OPERATOR.lastIndex = 0;
    const first = WRITE_OPERATOR.exec(segment);
    if (!first) continue;
    for (const word of words(segment.slice(first.index + first[0].length))) {
      if (word.startsWith('&') || word.startsWith('-') || /^\d$/.test(word)) continue;
      targets.push(word);
    }
  }
  return targets;
}

/** Whitespace-separated words with surrounding quotes removed; redirect characters split too. */
function words(text: string): string[] {
  return text
    .split(/[\s<>()`]+/)
    .map((word) => word.replace(/^["']+|["']+$/g, ''))
    .filter((word) => word !== '' && word !== 'tee');
}
