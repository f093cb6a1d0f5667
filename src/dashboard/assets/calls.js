// Live calls: the journal as it grows, newest first, from the dashboard's event stream.
// Each call opens to its arguments (as received and after defaults) and its answer. Above them,
// the run's verdict when the dashboard grades runs (verdict.js).

import { api, apiUrl } from './api.js';
import { h, clear, plural, toast } from './dom.js';
import { jsonView } from './json.js';
import * as verdict from './verdict.js';

const LIMIT = 1000;
let calls = [];
let root;
let listEl;
let countEl;
let seq = 0;
const filters = { tool: '', session: '', errors: false, text: '' };
const journal = new EventTarget();

/** Calls `listener` whenever the journal changes as the stream reports it: a new call, a
 * fresh snapshot (after a reconnect, when calls may have been missed) or a clear. Other views
 * follow the run through this instead of opening a stream of their own. */
export function onJournalChange(listener) {
  journal.addEventListener('change', listener);
}

function changed() {
  journal.dispatchEvent(new Event('change'));
}

/** Opens the event stream; `status` shows whether the view is live. */
export function connect(status) {
  const source = new EventSource(apiUrl('/calls/stream'));
  source.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'live on';
  });
  source.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'live off';
  });
  source.addEventListener('snapshot', (event) => {
    calls = JSON.parse(event.data).map(tag);
    render();
    changed();
  });
  source.addEventListener('call', (event) => {
    const call = tag(JSON.parse(event.data));
    call.fresh = true;
    calls.unshift(call);
    if (calls.length > LIMIT) calls.length = LIMIT;
    prepend(call);
    changed();
  });
  source.addEventListener('cleared', () => {
    calls = [];
    render();
    changed();
  });
}

function tag(call) {
  call.id = ++seq;
  return call;
}

export function start(section) {
  root = section;
  const toolSelect = h('select', { id: 'calls-tool', onchange: (e) => { filters.tool = e.target.value; render(); } });
  const sessionSelect = h('select', { id: 'calls-session', onchange: (e) => { filters.session = e.target.value; render(); } });
  countEl = h('span', { class: 'count', 'aria-live': 'polite' });
  listEl = h('ol', { class: 'calls', id: 'calls-list', 'aria-label': 'Calls, newest first' });
  const verdictEl = h('section', { class: 'verdict', id: 'verdict', 'aria-label': 'Verdict', 'aria-live': 'polite', hidden: true });
  root.append(
    verdictEl,
    h('div', { class: 'toolbar' },
      h('label', {}, 'Search ', h('input', { type: 'search', id: 'calls-search', placeholder: 'tool, scenario, argument…', oninput: (e) => { filters.text = e.target.value.toLowerCase(); render(); } })),
      h('label', {}, 'Tool ', toolSelect),
      h('label', {}, 'Session ', sessionSelect),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'calls-errors', onchange: (e) => { filters.errors = e.target.checked; render(); } }), ' Errors only'),
      countEl,
      h('button', { type: 'button', class: 'danger', id: 'calls-clear', onclick: clearJournal }, 'Clear journal')),
    listEl);
  render();
  verdict.start(verdictEl, onJournalChange);
}

async function clearJournal() {
  if (!confirm('Empty the call journal? Every recorded call is deleted.')) return;
  try {
    await api.delete('/calls');
    toast('Journal cleared');
  } catch (error) {
    toast(`Cannot clear the journal: ${error.message}`, { error: true });
  }
}

function options(select, values, all, current) {
  const shown = [...new Set(values.filter(Boolean))].sort();
  if (current && !shown.includes(current)) shown.unshift(current);
  clear(select).append(h('option', { value: '' }, all), ...shown.map((v) => h('option', { value: v, selected: v === current }, v)));
}

function matches(call) {
  if (filters.tool && call.tool !== filters.tool) return false;
  if (filters.session && call.session !== filters.session) return false;
  if (filters.errors && !call.isError) return false;
  if (filters.text) {
    const hay = `${call.tool} ${call.scenario ?? ''} ${call.transport} ${JSON.stringify(call.received)}`.toLowerCase();
    if (!hay.includes(filters.text)) return false;
  }
  return true;
}

function render() {
  if (!root) return;
  options(root.querySelector('#calls-tool'), calls.map((c) => c.tool), 'All tools', filters.tool);
  options(root.querySelector('#calls-session'), calls.map((c) => c.session), 'All sessions', filters.session);
  const shown = calls.filter(matches);
  count(shown.length);
  const open = new Set([...listEl.querySelectorAll('details[open]')].map((d) => d.dataset.id));
  clear(listEl);
  if (shown.length === 0) {
    listEl.append(h('li', { class: 'empty' }, calls.length === 0
      ? 'No calls yet. Point an agent at careem-mcp serve, or use Try a call; calls appear here as they happen.'
      : 'No call matches the filters.'));
    return;
  }
  listEl.append(...shown.map((call) => row(call, open.has(String(call.id)))));
  for (const call of shown) call.fresh = false;
}

/** A new call on top of the list as it stands: one row added (and those past the limit
 * dropped) instead of the whole list rebuilt. */
function prepend(call) {
  if (!root) return;
  if (!listEl.querySelector('li.call')) {
    render();
    return;
  }
  options(root.querySelector('#calls-tool'), calls.map((c) => c.tool), 'All tools', filters.tool);
  options(root.querySelector('#calls-session'), calls.map((c) => c.session), 'All sessions', filters.session);
  if (matches(call)) {
    listEl.prepend(row(call, false));
    call.fresh = false;
  }
  const oldest = calls[calls.length - 1].id;
  for (let last = listEl.lastElementChild; last && Number(last.dataset.id) < oldest; last = listEl.lastElementChild) {
    last.remove();
  }
  if (listEl.children.length === 0) render();
  else count(listEl.children.length);
}

function count(shown) {
  countEl.textContent = `${shown} of ${plural(calls.length, 'call')}`;
}

function row(call, open) {
  const time = new Date(call.time);
  const clock = Number.isNaN(time.getTime()) ? call.time : time.toLocaleTimeString([], { hour12: false }) + `.${String(time.getMilliseconds()).padStart(3, '0')}`;
  // The body is built when first opened: a long journal stays quick to redraw.
  const details = h('details', { open, dataset: { id: String(call.id) }, ontoggle: (e) => { if (e.target.open) body(details, call); } },
    h('summary', {},
      h('time', { datetime: call.time, title: call.time }, clock),
      h('span', { class: 'transport' }, call.transport),
      h('span', { class: 'session', title: call.session ?? 'no session' }, call.session ? call.session.slice(0, 8) : '—'),
      h('span', { class: 'tool' }, call.tool),
      h('span', { class: 'scenario' }, call.scenario ?? '—', badges(call)),
      h('span', { class: 'duration' }, duration(call)),
      h('span', { class: `outcome ${call.isError ? 'bad' : 'good'}` }, call.isError ? 'isError' : 'ok')));
  if (open) body(details, call);
  return h('li', { class: `call${call.isError ? ' error' : ''}${call.fresh ? ' fresh' : ''}`, dataset: { id: String(call.id), tool: call.tool, scenario: call.scenario ?? '' } }, details);
}

function body(details, call) {
  if (details.querySelector('.call-body')) return;
  details.append(h('div', { class: 'call-body' },
    panel('Arguments as received', call.received),
    panel('Arguments after defaults', call.arguments),
    panel('Answer', call.result, 3)));
}

function badges(call) {
  const list = [];
  if (call.forced) list.push(h('span', { class: 'badge forced' }, 'forced'));
  if (call.step !== undefined && call.step !== null) list.push(h('span', { class: 'badge step' }, `step ${call.step}`));
  if (call.delayMs) list.push(h('span', { class: 'badge delay' }, `+${call.delayMs} ms`));
  if (call.fault) list.push(h('span', { class: 'badge fault' }, `fault: ${call.fault}`));
  return list;
}

function duration(call) {
  const ms = (call.micros ?? 0) / 1000 + (call.delayMs ?? 0);
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`;
}

function panel(title, value, open = 2) {
  return h('section', { class: 'panel' }, h('h3', {}, title), jsonView(value, { open }));
}
