/**
 * Line 2 of the status line: slug, phase, wave with its bar, TDD
 * phase, then agents, next hint or an ellipsis. Each field is read from the parsed JSON, never
 * from a joined text row, so an empty field cannot shift the others.
 */
import { isObject, present, type Json } from '../../core/json.js';

const ANSI = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
};
export const SEP = ' · ';

type Paint = (code: keyof typeof ANSI, text: string) => string;

export function painter(color: boolean): Paint {
  return color ? (code, text) => `${ANSI[code]}${text}${ANSI.reset}` : (_code, text) => text;
}

/** A document or payload string must not smuggle escapes or a newline (an extra row) into a line. */
export function clean(value: Json | undefined): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

export function renderTaskLine(doc: Json | undefined, color = true): string | undefined {
  if (!isObject(doc) || !present(doc.slug)) return undefined;
  const paint = painter(color);
  const parts = [paint('bold', clean(doc.slug))];
  if (present(doc.phase) && present(doc.phase_total))
    parts.push(`${paint('dim', 'p')}${clean(doc.phase)}/${clean(doc.phase_total)}`);
  if (present(doc.wave) && present(doc.wave_total))
    parts.push(
      `${paint('dim', 'w')}${clean(doc.wave)}/${clean(doc.wave_total)} [${waveBar(doc.wave_total, doc.wave_status)}]`,
    );
  const tdd = present(doc.tdd_phase) ? clean(doc.tdd_phase) : 'FREE';
  if (tdd !== 'FREE')
    parts.push(
      tdd === 'RED'
        ? paint('red', tdd)
        : tdd === 'GREEN'
          ? paint('green', tdd)
          : tdd === 'REFACTOR'
            ? paint('yellow', tdd)
            : tdd,
    );
  const agents = Array.isArray(doc.active_agents) ? doc.active_agents.map(clean) : [];
  if (agents.length > 0) parts.push(`${paint('cyan', '↻')} ${agents.join(', ')}`);
  else if (present(doc.next_hint)) parts.push(`${paint('dim', '→')} ${clean(doc.next_hint)}`);
  else if (doc.status === 'in_progress') parts.push(paint('dim', '…'));
  return parts.join(SEP);
}

function waveBar(total: Json | undefined, status: Json | undefined): string {
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0) return '';
  const states = isObject(status) ? status : {};
  let bar = '';
  for (let i = 1; i <= Math.min(total, 64); i++) {
    const state = states[String(i)];
    bar += state === 'done' ? '▓' : state === 'in_progress' ? '▒' : '░';
  }
  return bar;
}
