// The controls row of one overrides entry (a tool's, or the "*" default): a sequence of steps
// picked in order, a delay, a fault and its rate. The entry is sent whole in the overrides
// file's own form; the server checks it with the engine's parser and says what is wrong, shown
// right under the row.

import { api } from './api.js';
import { h, toast } from './dom.js';

const FAULT_STEP = 'fault:';

// `name` is the tool (or "*"), `scenarios` its scenario names (none for "*"), `faults` the
// fault kinds, `entry` the current entry as the file holds it; `done` reloads the view.
export function controlsRow(name, scenarios, faults, entry, ignored, done) {
  const current = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? entry : {};
  const steps = initialSteps(entry);
  const stepsEl = h('ol', { class: 'steps', 'aria-label': 'sequence' });
  const errorEl = h('p', { class: 'control-error', role: 'alert', hidden: true });
  const key = (part) => ({ key: `${name}/controls/${part}` });

  const drawSteps = () => {
    stepsEl.replaceChildren(...steps.map((step, index) => h('li', {},
      h('code', {}, step),
      h('button', {
        type: 'button', class: 'remove', 'aria-label': `remove step ${index + 1} (${step})`,
        onclick: () => { steps.splice(index, 1); drawSteps(); },
      }, '×'))));
  };
  const pick = h('select', { 'aria-label': `${name}: step to add`, dataset: key('pick') },
    ...scenarios.map((s) => h('option', { value: s }, s)),
    ...faults.map((f) => h('option', { value: FAULT_STEP + f }, FAULT_STEP + f)));
  const delay = h('input', {
    type: 'text', size: 14, placeholder: '2s or 200ms..1500ms', value: current.delay ?? '',
    'aria-label': `${name}: delay`, dataset: key('delay'),
  });
  const fault = h('select', { 'aria-label': `${name}: fault`, dataset: key('fault') },
    h('option', { value: '' }, 'no fault'),
    ...faults.map((f) => h('option', { value: f, selected: current.fault === f }, f)));
  const rate = h('input', {
    type: 'number', min: 0, max: 1, step: 0.05, placeholder: 'rate 0..1', value: current.rate ?? '',
    'aria-label': `${name}: fault rate`, dataset: key('rate'),
  });

  const send = async (value) => {
    try {
      await api.put(`/scenarios/${encodeURIComponent(name)}/entry`, { entry: value });
      toast(value === null ? `${name} → cleared` : `${name} → ${JSON.stringify(value)}`);
      await done();
    } catch (error) {
      errorEl.hidden = false;
      errorEl.textContent = error.message;
    }
  };
  const build = () => {
    const value = {};
    const sequence = steps.map((s) => (s.startsWith(FAULT_STEP) ? { fault: s.slice(FAULT_STEP.length) } : s));
    if (sequence.length === 1 && typeof sequence[0] === 'string') value.scenario = sequence[0];
    else if (sequence.length) value.sequence = sequence;
    if (delay.value.trim()) value.delay = delay.value.trim();
    if (fault.value) value.fault = fault.value;
    if (rate.value !== '') value.rate = Number(rate.value);
    return value;
  };

  const row = h('form', {
    class: 'controls', dataset: { entry: name },
    onsubmit: (event) => { event.preventDefault(); errorEl.hidden = true; send(build()); },
  },
  h('div', { class: 'control-line' },
    name !== '*' ? [
      pick,
      h('button', { type: 'button', dataset: key('add'), onclick: () => { steps.push(pick.value); drawSteps(); } }, 'Add step'),
    ] : null,
    delay, fault, rate,
    h('button', { type: 'submit', class: 'apply', dataset: key('apply') }, 'Apply'),
    h('button', { type: 'button', dataset: key('clear'), onclick: () => { errorEl.hidden = true; send(null); } }, 'Clear')),
  stepsEl,
  h('p', { class: 'entry-now' }, entry === undefined || entry === null ? 'no entry' : h('code', {}, JSON.stringify(entry))),
  ignored ? h('p', { class: 'control-error' }, `ignored: ${ignored}`) : null,
  errorEl);
  drawSteps();
  return row;
}

// The steps an entry already has, as the picker writes them: names and `fault:KIND`.
function initialSteps(entry) {
  if (typeof entry === 'string') return [entry];
  const list = Array.isArray(entry) ? entry : entry?.sequence ?? (entry?.scenario ? [entry.scenario] : []);
  return list.map((step) => {
    if (typeof step === 'string') return step;
    if (step?.scenario) return step.scenario;
    return step?.fault ? FAULT_STEP + step.fault : '';
  }).filter(Boolean);
}
