// The dashboard page. Everything taken from a document is put in the DOM as text (textContent,
// never innerHTML), so a value like <script> shows as the characters it is.
'use strict';

const token = new URLSearchParams(location.search).get('token');
const PAGE = 100;
const state = {
  documents: [],
  allowWrites: false,
  historyLimit: PAGE,
  selected: decodeURIComponent(location.hash.slice(1)),
  openRev: null,
  file: null,
  message: null,
};

function url(path, params = {}) {
  const query = new URLSearchParams(params);
  if (token) query.set('token', token);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

async function api(path, params, init) {
  const res = await fetch(url(path, params), init);
  const body = await res.json().catch(() => ({ error: { code: 'internal', message: `HTTP ${res.status}` } }));
  if (!res.ok)
    throw Object.assign(new Error(body.error ? body.error.message : `HTTP ${res.status}`), {
      status: res.status,
      code: body.error && body.error.code,
    });
  return body;
}

/** el('div', { class: 'x' }, 'text', child): strings become text nodes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const show = (value) => (value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));
const present = (value) => value !== undefined && value !== null && value !== '';

function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

function duration(start, end) {
  if (!start) return '-';
  const s = Math.max(0, Math.round(((end ? Date.parse(end) : Date.now()) - Date.parse(start)) / 1000));
  const text =
    s < 60
      ? `${s}s`
      : s < 3600
        ? `${Math.floor(s / 60)}m ${s % 60}s`
        : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return end ? text : `${text}+`;
}

function bar(name, value, max) {
  const ok = Number.isInteger(value) && Number.isInteger(max) && max > 0;
  return el(
    'span',
    {},
    ok ? el('progress', { 'data-bar': name, value: Math.min(value, max), max }) : null,
    ' ',
    ok ? `${value}/${max}` : show(value ?? null),
  );
}

// ---- the list --------------------------------------------------------------------------------

function renderList() {
  const nav = document.getElementById('list');
  nav.replaceChildren();
  if (state.documents.length === 0) {
    nav.append(
      el(
        'div',
        { class: 'empty dim', id: 'empty' },
        'No documents yet. Run ',
        el('code', {}, 'baton init state.json'),
        ', ',
        el('code', {}, 'baton run init SESSION'),
        ' or ',
        el('code', {}, 'baton task init ...'),
        ' in this project; they appear here as they are written.',
      ),
    );
    return;
  }
  for (const doc of state.documents) {
    nav.append(
      el(
        'button',
        { class: doc.id === state.selected ? 'selected' : '', 'data-doc': doc.id, onclick: () => select(doc.id) },
        el('span', { class: 'title' }, el('span', { class: 'kind' }, doc.kind), doc.title),
        el(
          'span',
          { class: 'dim' },
          doc.error ? `unreadable: ${doc.error}` : [doc.status ? `${doc.status} · ` : '', ago(doc.mtime)],
        ),
      ),
    );
  }
}

async function loadList() {
  const body = await api('/api/documents');
  state.documents = body.documents;
  state.allowWrites = body.allowWrites;
  document.getElementById('root').textContent = body.root;
  const mode = document.getElementById('mode');
  mode.textContent = body.allowWrites ? 'writes allowed' : 'read-only';
  mode.className = `badge ${body.allowWrites ? 'warn' : ''}`;
  if (!state.selected && state.documents[0]) state.selected = state.documents[0].id;
  renderList();
}

// ---- one document ----------------------------------------------------------------------------

function select(id) {
  clearTimeout(leaseTimer);
  state.selected = id;
  state.openRev = null;
  state.file = null;
  state.message = null;
  state.historyLimit = PAGE;
  history.replaceState(null, '', `${location.search}#${encodeURIComponent(id)}`);
  renderList();
  loadDetail();
}

let loading = 0;
async function loadDetail() {
  const id = state.selected;
  const section = document.getElementById('detail');
  if (!id) return void section.replaceChildren();
  const ticket = ++loading;
  let parts;
  try {
    const goal = id.startsWith('goal:');
    const [detail, entries, diff, file] = await Promise.all([
      api('/api/document', { doc: id }),
      goal ? null : api('/api/history', { doc: id, limit: state.historyLimit }).then((body) => body.entries),
      state.openRev ? api('/api/diff', { doc: id, rev: state.openRev }).catch((error) => ({ error })) : null,
      state.file ? api('/api/file', { path: state.file }).catch((error) => ({ path: state.file, error })) : null,
    ]);
    parts = [renderDetail(detail), file && renderFile(file), entries && renderHistory(id, entries, diff)];
  } catch (error) {
    parts = [el('h2', {}, id), el('div', { class: 'message bad', id: 'error' }, error.message)];
  }
  if (ticket !== loading) return; // a newer load is on its way
  section.replaceChildren(...parts.filter(Boolean));
  section.dataset.loaded = id;
}

function renderDetail(detail) {
  if (detail.kind === 'board') return renderBoard(detail);
  if (detail.kind === 'task') return renderTask(detail);
  if (detail.kind === 'run') return renderRun(detail);
  if (detail.kind === 'goal') return renderGoal(detail);
  return el(
    'div',
    {},
    el('h2', {}, el('span', { class: 'kind' }, 'document'), detail.id),
    el('pre', { id: 'json' }, JSON.stringify(detail.value, null, 2)),
  );
}

// ---- the work board --------------------------------------------------------------------------

const STATE_WORDS = {
  held: 'held',
  expired: 'lease expired',
  waiting: 'waiting',
  open: 'ready',
  blocked: 'blocked',
  done: 'done',
};

/** A lease runs out with no write to wake the page: it reloads what it shows at the next lease end. */
let leaseTimer = null;
function refreshAtNextLeaseEnd(view) {
  clearTimeout(leaseTimer);
  const skew = Date.now() - Date.parse(view.now);
  const ends = view.items
    .filter((item) => item.state === 'held')
    .map((item) => Date.parse(item.expires) + skew - Date.now())
    .filter(Number.isFinite);
  if (ends.length === 0) return;
  // At most a day ahead: setTimeout's range; a page open that long refreshes on the next write anyway.
  leaseTimer = setTimeout(() => refresh(), Math.min(86400000, Math.max(0, Math.min(...ends)) + 250));
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS` UTC; the exact value is the element's title. */
const when = (iso) =>
  String(iso)
    .replace('T', ' ')
    .replace(/(\.\d+)?Z$/, ' UTC');

function list(values, more) {
  if (!values || values.length === 0) return el('span', { class: 'dim' }, '-');
  return el('span', {}, values.join(', '), more ? el('span', { class: 'dim' }, ` +${more} more`) : null);
}

function renderBoard({ id, board: view }) {
  refreshAtNextLeaseEnd(view);
  const c = view.counts;
  const summary = [
    `${c.done}/${view.total} done`,
    `${view.pending} pending`,
    c.held ? `${c.held} held` : '',
    c.expired ? `${c.expired} with an expired lease` : '',
    c.blocked ? `${c.blocked} blocked` : '',
    c.open ? `${c.open} ready` : '',
    c.waiting ? `${c.waiting} waiting` : '',
  ].filter(Boolean);
  const table = el(
    'table',
    { id: 'board' },
    el(
      'tr',
      {},
      ['item', 'title', 'state', 'holder', 'lease ends', 'after', 'paths'].map((h) => el('th', {}, h)),
    ),
  );
  for (const item of view.items) {
    const holder =
      item.holder !== undefined && item.state !== 'done' && item.state !== 'blocked'
        ? el('span', { class: 'holder' }, item.holder)
        : item.done_by !== undefined
          ? el('span', { class: 'dim' }, `done by ${item.done_by}`)
          : el('span', { class: 'dim' }, '-');
    const leased = item.expires !== undefined && (item.state === 'held' || item.state === 'expired');
    const lease = leased
      ? el(
          'span',
          { class: item.state === 'expired' ? 'bad' : '', title: item.expires },
          item.state === 'expired' ? `expired ${when(item.expires)}` : when(item.expires),
        )
      : el('span', { class: 'dim', title: item.done_at || '' }, item.done_at ? `done ${when(item.done_at)}` : '-');
    table.append(
      el(
        'tr',
        { 'data-item': item.id, 'data-state': item.state },
        el('td', {}, el('code', {}, item.id)),
        el('td', { class: 'item-title' }, item.title),
        el(
          'td',
          { class: 'item-state' },
          STATE_WORDS[item.state] || item.state,
          item.reason !== undefined ? el('div', { class: 'dim' }, item.reason) : null,
          item.waits_for ? el('div', { class: 'dim' }, 'waits for ', list(item.waits_for, item.waits_more)) : null,
        ),
        el('td', { class: 'item-holder' }, holder),
        el('td', { class: 'item-lease' }, lease),
        el('td', {}, list(item.after, item.after_more)),
        el('td', {}, list(item.paths, item.paths_more)),
      ),
    );
  }
  return el(
    'div',
    {},
    el('h2', {}, el('span', { class: 'kind' }, 'board'), 'work board'),
    el('div', { class: 'dim' }, id),
    el('p', { id: 'board-summary' }, summary.join(' · ')),
    view.total === 0 ? el('p', { class: 'dim' }, 'No items yet: baton work add ID --title T') : table,
    view.omitted > 0
      ? el(
          'p',
          { class: 'dim', id: 'board-omitted' },
          `${view.omitted} more items not shown (the page shows ${view.items.length}, pending first); baton work show lists them all`,
        )
      : null,
  );
}

function renderTask({ id, value: t, barrier }) {
  const waves = el('span', { class: 'waves' });
  for (let i = 1; Number.isInteger(t.wave_total) && i <= Math.min(t.wave_total, 64); i++) {
    const status = t.wave_status && t.wave_status[String(i)];
    waves.append(
      el('span', { class: typeof status === 'string' ? status : '', title: `wave ${i}: ${status || 'pending'}` }),
    );
  }
  const agents = Array.isArray(t.active_agents) ? t.active_agents : [];
  const rows = [
    ['status', el('span', { class: String(t.status), id: 'task-status' }, show(t.status))],
    ['phase', el('span', {}, bar('phase', t.phase, t.phase_total), present(t.phase_name) ? ` ${t.phase_name}` : '')],
    ['wave', el('span', {}, bar('wave', t.wave, t.wave_total), waves)],
    ['TDD phase', el('span', { class: String(t.tdd_phase) }, show(t.tdd_phase ?? 'FREE'))],
    ['active agents', agents.length ? agents.join(', ') : el('span', { class: 'dim' }, 'none')],
    ['next', present(t.next_hint) ? show(t.next_hint) : el('span', { class: 'dim' }, '-')],
  ];
  if (barrier) {
    rows.push([
      'wave barrier',
      el(
        'span',
        { id: 'barrier' },
        `wave ${barrier.wave}: ${barrier.done}/${barrier.expected} done (${barrier.status})`,
      ),
    ]);
    rows.push([
      'agents seen',
      barrier.seen_agents.length ? barrier.seen_agents.join(', ') : el('span', { class: 'dim' }, 'none'),
    ]);
    // Each blocked agent with the reason it returned (BLOCKED|reason), one line each.
    const reasons = barrier.blocked_reasons ?? {};
    const blocked = [...barrier.blocked_agents, ...(reasons[''] !== undefined ? [''] : [])];
    rows.push([
      'blocked',
      blocked.length
        ? el(
            'span',
            { id: 'blocked' },
            ...blocked.map((agent) =>
              el(
                'div',
                { class: 'bad', 'data-agent': agent },
                agent || '(an agent without id)',
                reasons[agent] ? `: ${reasons[agent]}` : '',
              ),
            ),
          )
        : el('span', { class: 'dim' }, 'none'),
    ]);
  }
  return el(
    'div',
    {},
    el('h2', {}, el('span', { class: 'kind' }, 'task'), el('span', { id: 'slug' }, show(t.slug))),
    el('div', { class: 'dim' }, id, t.last_update ? ` · updated ${t.last_update}` : ''),
    el(
      'div',
      { class: 'grid', id: 'task' },
      rows.flatMap(([label, value]) => [el('span', { class: 'dim' }, label), el('span', {}, value)]),
    ),
  );
}

function renderRun({ id, value: run, phases }) {
  const entries = phases.map(({ key, gate }) => ({ key, gate, p: run.phases[key] }));
  const starts = entries.map((e) => Date.parse(e.p.started_at)).filter(Number.isFinite);
  const t0 = Math.min(...starts);
  const t1 = Math.max(Date.now(), ...entries.map((e) => Date.parse(e.p.finished_at)).filter(Number.isFinite));
  const span = Math.max(1, t1 - t0);
  const timeline = el(
    'table',
    { id: 'timeline' },
    el(
      'tr',
      {},
      ['phase', 'agent', 'status', 'start', 'duration', ''].map((h) => el('th', {}, h)),
    ),
  );
  for (const { key, p } of entries) {
    const track = el('div', { class: 'track' });
    const start = Date.parse(p.started_at);
    if (Number.isFinite(start)) {
      const end = p.finished_at ? Date.parse(p.finished_at) : Date.now();
      const seg = el('span', { class: p.status });
      seg.style.left = `${((start - t0) / span) * 100}%`;
      seg.style.width = `${((end - start) / span) * 100}%`;
      track.append(seg);
    }
    timeline.append(
      el(
        'tr',
        { 'data-phase': key },
        el('td', {}, key),
        el('td', {}, show(p.agent ?? '-')),
        el('td', { class: p.status }, p.status),
        el('td', {}, p.started_at || '-'),
        el('td', {}, duration(p.started_at, p.finished_at)),
        el('td', {}, track),
      ),
    );
  }
  const details = entries.map(({ key, p, gate }) =>
    el(
      'div',
      { 'data-phase-detail': key },
      el(
        'h3',
        {},
        `${key} `,
        el('span', { class: gate.pass ? 'pass' : 'fail' }, gate.pass ? 'gate holds' : 'gate fails'),
        p.gate ? el('span', { class: 'dim' }, ` (recorded ${p.gate.result} at ${p.gate.at})`) : '',
      ),
      Object.keys(p.outputs || {}).length
        ? el(
            'div',
            {},
            el('span', { class: 'dim' }, 'outputs: '),
            Object.entries(p.outputs).map(([k, v]) => el('div', {}, el('code', {}, k), ' = ', show(v))),
          )
        : null,
      (p.evidence || []).length
        ? el(
            'div',
            {},
            el('span', { class: 'dim' }, 'evidence: '),
            p.evidence
              .map((path) => el('button', { class: 'link', 'data-file': path, onclick: () => openFile(path) }, path))
              .flatMap((b) => [b, ' ']),
          )
        : null,
      el(
        'table',
        { class: 'gate' },
        gate.rows.map((row) =>
          el(
            'tr',
            {},
            el('td', { class: row.holds ? 'ok' : 'bad' }, row.holds ? '✓' : '✗'),
            el('td', {}, row.kind),
            el('td', {}, row.subject),
            el('td', { class: 'dim' }, row.detail),
          ),
        ),
      ),
    ),
  );
  const vars = Object.entries(run).filter(([k]) => !['session', 'phases', 'contract'].includes(k));
  return el(
    'div',
    {},
    el('h2', {}, el('span', { class: 'kind' }, 'run'), show(run.session)),
    el('div', { class: 'dim' }, id),
    entries.length ? timeline : el('p', { class: 'dim' }, 'No phases yet.'),
    details,
    vars.length
      ? el(
          'div',
          {},
          el('h3', {}, 'run variables'),
          vars.map(([k, v]) => el('div', {}, el('code', {}, k), ' = ', show(v))),
        )
      : null,
  );
}

function renderGoal({ id, text, findings }) {
  const lines = text.split('\n');
  const flagged = (line) => {
    const heading = /^#+\s+(.*)$/.exec(line);
    const name = heading ? heading[1].trim() : '';
    return name.length > 2 && findings.some((f) => f.message.includes(name));
  };
  return el(
    'div',
    {},
    el('h2', {}, el('span', { class: 'kind' }, 'goal'), id.slice(5)),
    findings.length
      ? el(
          'ul',
          { id: 'findings' },
          findings.map((f) => el('li', { class: 'finding' }, el('code', {}, f.code), ' ', f.message)),
        )
      : el('p', { class: 'ok' }, 'lint: no findings'),
    el(
      'div',
      { class: 'md', id: 'state-md' },
      lines.map((line) =>
        el(
          'div',
          { class: [/^#/.test(line) ? 'h' : '', flagged(line) ? 'flag' : ''].join(' ').trim() },
          line || '\u00a0',
        ),
      ),
    ),
  );
}

function openFile(path) {
  state.file = path;
  loadDetail();
}

function renderFile(file) {
  return el(
    'div',
    { id: 'file' },
    el(
      'h3',
      {},
      'file ',
      el('code', {}, file.path),
      ' ',
      el(
        'button',
        {
          class: 'link',
          onclick: () => {
            state.file = null;
            loadDetail();
          },
        },
        'close',
      ),
    ),
    file.error
      ? el('div', { class: 'message bad', id: 'file-error' }, file.error.message)
      : el('pre', { id: 'file-text' }, file.text),
  );
}

// ---- history ---------------------------------------------------------------------------------

function renderDiff(diff) {
  if (diff.error) return el('div', { class: 'message bad' }, diff.error.message);
  const rows = diff.entry.patch.map((op, i) => {
    const old = diff.old[i] ? diff.old[i].value : undefined;
    return el(
      'div',
      {},
      el('div', {}, el('strong', {}, op.path || '/'), el('span', { class: 'dim' }, ` ${op.op}`)),
      op.op !== 'add' && old !== undefined ? el('div', { class: 'minus' }, `- ${JSON.stringify(old)}`) : null,
      op.op !== 'remove' ? el('div', { class: 'plus' }, `+ ${JSON.stringify(op.value)}`) : null,
    );
  });
  return el(
    'div',
    { class: 'diff', id: `diff-${diff.entry.rev}` },
    rows.length ? rows : el('span', { class: 'dim' }, 'no change'),
  );
}

function renderHistory(id, entries, diff) {
  const table = el('table', { id: 'history' });
  for (const entry of entries) {
    const what = entry.op.expr || entry.op.path || entry.op.note || (entry.op.rev ? `to rev ${entry.op.rev}` : '');
    const open = state.openRev === entry.rev;
    table.append(
      el(
        'tr',
        {
          class: `rev${open ? ' open' : ''}`,
          'data-rev': entry.rev,
          onclick: () => {
            state.openRev = open ? null : entry.rev;
            loadDetail();
          },
        },
        el('td', {}, `r${entry.rev}`),
        el('td', {}, entry.time),
        el('td', {}, entry.writer || '-'),
        el('td', {}, entry.op.kind),
        el('td', { class: 'dim' }, what),
      ),
    );
    if (open && diff) {
      table.append(
        el(
          'tr',
          {},
          el(
            'td',
            { colspan: 5 },
            renderDiff(diff),
            el(
              'button',
              {
                class: 'action',
                id: 'revert',
                onclick: (event) => {
                  event.stopPropagation();
                  revert(id, entry.rev);
                },
              },
              `revert to r${entry.rev}`,
            ),
            state.allowWrites ? null : el('span', { class: 'dim' }, ' (read-only: start baton ui --allow-writes)'),
          ),
        ),
      );
    }
  }
  // The newest revisions first; older ones a page at a time (the server gives at most 1000).
  const more =
    entries.length === state.historyLimit && state.historyLimit < 1000
      ? el(
          'button',
          {
            class: 'action',
            id: 'older',
            onclick: () => {
              state.historyLimit += PAGE;
              loadDetail();
            },
          },
          'show older revisions',
        )
      : null;
  return el(
    'div',
    {},
    el('h3', {}, 'history'),
    state.message
      ? el('div', { class: `message ${state.message.ok ? 'ok' : 'bad'}`, id: 'message' }, state.message.text)
      : null,
    table,
    more,
  );
}

async function revert(id, rev) {
  if (
    !confirm(
      `Make revision ${rev} of ${id} the current document? (a new revision, recorded as written by the dashboard)`,
    )
  )
    return;
  try {
    const body = await api(
      '/api/revert',
      {},
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ doc: id, rev }) },
    );
    state.message = { ok: true, text: `restored r${rev} as r${body.rev}` };
    state.openRev = null;
  } catch (error) {
    state.message = { ok: false, text: `refused (${error.status}): ${error.message}` };
  }
  loadDetail();
}

// ---- live ------------------------------------------------------------------------------------

function connect() {
  const live = document.getElementById('live');
  const events = new EventSource(url('/api/events'));
  events.addEventListener('open', () => {
    live.textContent = 'live';
    live.className = 'badge ok';
  });
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting';
    live.className = 'badge bad';
  });
  events.addEventListener('change', () => refresh());
}

let pending = null;
function refresh() {
  // One refetch at a time; a change during it asks for one more.
  if (pending) return void (pending.again = true);
  pending = { again: false };
  Promise.all([loadList(), loadDetail()])
    .catch(() => {})
    .finally(() => {
      const again = pending.again;
      pending = null;
      if (again) refresh();
    });
}

window.addEventListener('hashchange', () => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id && id !== state.selected) select(id);
});
// With a document in the URL, it loads beside the list rather than after it.
const first = state.selected ? Promise.all([loadList(), loadDetail()]) : loadList().then(loadDetail);
first.catch((error) => {
  document.getElementById('detail').replaceChildren(el('div', { class: 'message bad', id: 'error' }, error.message));
});
connect();
