// Scenarios: every tool with its scenarios and the one forced now. One click forces a
// scenario (or clears it when it is already forced), and each tool's controls row (and the
// "*" one at the top) sets sequences, delays, faults and rates; the server writes the overrides file
// exactly as `careem-mcp scenario` does, and the next call of the tool is answered from it.

import { api } from './api.js';
import { h, clear, toast } from './dom.js';
import { controlsRow } from './controls.js';

let root;
let listEl;
let defaultEl;
let noticeEl;
let data = { tools: [] };
let search = '';

export function start(section) {
  root = section;
  listEl = h('div', { class: 'tool-cards', id: 'scenario-list' });
  noticeEl = h('div', { class: 'notice', hidden: true, role: 'alert' });
  root.append(
    h('div', { class: 'toolbar' },
      h('label', {}, 'Search ', h('input', { type: 'search', id: 'scenario-search', placeholder: 'tool or scenario…', oninput: (e) => { search = e.target.value.toLowerCase(); render(); } })),
      h('span', { class: 'count', id: 'scenario-count' }),
      h('button', { type: 'button', class: 'danger', id: 'scenario-reset', onclick: reset }, 'Reset everything')),
    noticeEl,
    defaultEl = h('section', { class: 'tool-card default-entry', id: 'default-entry' }),
    listEl);
  load();
  // Someone may force a scenario from the CLI meanwhile: look again when the page is back.
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !root.hidden) load(); });
}

export function shown() {
  load();
}

async function load() {
  try {
    data = await api.get('/scenarios');
    render();
  } catch (error) {
    toast(`Cannot load the scenarios: ${error.message}`, { error: true });
  }
}

async function force(tool, scenario) {
  try {
    const answer = await api.put(`/scenarios/${encodeURIComponent(tool)}`, { scenario });
    toast(answer.forced ? `${tool} → ${answer.forced} (forced)` : `${tool} → normal selection`);
  } catch (error) {
    toast(error.message, { error: true });
  }
  await load();
}

async function reset() {
  try {
    await api.post('/reset');
    toast('Every tool → normal selection');
  } catch (error) {
    toast(error.message, { error: true });
  }
  await load();
}

function render() {
  noticeEl.hidden = !data.problem;
  noticeEl.textContent = data.problem ? `${data.problem}. Nothing here is written until it is fixed.` : '';
  const forcedCount = data.tools.filter((t) => t.forced).length;
  root.querySelector('#scenario-count').textContent = `${data.tools.length} tools, ${forcedCount} forced`;
  const shownTools = data.tools.filter((t) => !search || t.tool.toLowerCase().includes(search)
    || t.scenarios.some((s) => s.name.toLowerCase().includes(search)));
  // Keep the keyboard where it was across a redraw.
  const focused = document.activeElement?.dataset?.key;
  const faults = data.faults ?? [];
  clear(defaultEl).append(
    h('header', {}, h('h2', {}, '*'), h('span', { class: 'domain' }, 'every tool: default delay, fault and rate')),
    controlsRow('*', [], faults, data.default?.entry, data.default?.ignored, load));
  clear(listEl).append(...shownTools.map(card));
  if (focused) listEl.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

function card(tool) {
  return h('section', { class: `tool-card${tool.forced ? ' has-forced' : ''}`, dataset: { tool: tool.tool } },
    h('header', {},
      h('h2', {}, tool.tool),
      tool.domain ? h('span', { class: 'domain' }, tool.domain) : null,
      h('button', {
        type: 'button', class: 'normal', disabled: !tool.forced, dataset: { key: `${tool.tool}/` },
        onclick: () => force(tool.tool, null),
        title: 'Clear the forced scenario: the next call is selected as usual',
      }, tool.forced ? 'Back to normal' : 'Normal selection')),
    h('ul', { class: 'scenarios' }, tool.scenarios.map((s) => h('li', { class: s.forced ? 'forced' : '' },
      h('button', {
        type: 'button', class: 'force', 'aria-pressed': String(s.forced), dataset: { key: `${tool.tool}/${s.name}`, scenario: s.name },
        onclick: () => force(tool.tool, s.forced ? null : s.name),
        title: s.forced ? 'Forced now: click to clear' : 'Force this scenario for every call of the tool',
      }, s.name),
      h('span', { class: `kind ${s.kind}` }, s.label),
      s.rule ? h('code', { class: 'rule', title: 'match rule' }, JSON.stringify(s.rule)) : null))),
    controlsRow(tool.tool, tool.scenarios.map((s) => s.name), data.faults ?? [], tool.forced, tool.ignored, load));
}
