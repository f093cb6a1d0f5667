// World: the run's world as `careem-mcp world` shows it — the clock, the basket, the orders and
// the rides, each as its read-only tool answers for it now. The view follows the run as it
// changes: it looks again when the live stream reports a call, when it is shown, and every
// few seconds while it is open (a clock moved with `careem-mcp clock` makes no call).

import { api } from './api.js';
import { h, clear, plural } from './dom.js';
import { jsonView } from './json.js';
import { onJournalChange } from './calls.js';

const POLL_MS = 2000;
const NONE = '–';

let root;
let statusEl;
let clockEl;
let basketEl;
let ordersEl;
let ridesEl;
let stateEl;
let stateBody;
let shownWorld = '';
let loading = false;
let again = false;
let timer;

export function start(section) {
  root = section;
  statusEl = h('p', { class: 'world-status', id: 'world-status', role: 'status', 'aria-live': 'polite' }, 'Loading the world…');
  clockEl = h('p', { class: 'world-clock', id: 'world-clock' });
  basketEl = h('div', { class: 'world-table', id: 'world-basket' });
  ordersEl = h('div', { class: 'world-table', id: 'world-orders' });
  ridesEl = h('div', { class: 'world-table', id: 'world-rides' });
  stateBody = h('div', { class: 'panel' });
  stateEl = h('details', { class: 'world-raw', id: 'world-raw' }, h('summary', {}, 'State as stored'), stateBody);
  root.append(
    h('div', { class: 'toolbar' }, clockEl, statusEl),
    basketEl, ordersEl, ridesEl, stateEl);
  onJournalChange(() => { if (visible()) load(); });
  document.addEventListener('visibilitychange', () => { if (visible()) load(); });
  load();
}

export function shown() {
  load();
}

function visible() {
  return root && !root.hidden && !document.hidden;
}

/** One request at a time: a reason to look again while one is out asks for one more after it. */
async function load() {
  if (loading) {
    again = true;
    return;
  }
  loading = true;
  clearTimeout(timer);
  try {
    render(await api.get('/world'));
  } catch (error) {
    say(`Cannot load the world: ${error.message}`, true);
  } finally {
    loading = false;
    if (again) {
      again = false;
      load();
    } else if (visible()) {
      timer = setTimeout(() => { if (visible()) load(); }, POLL_MS);
    }
  }
}

/** The status line changes (and is announced) only when what it says changes. */
function say(text, error = false) {
  if (statusEl.textContent !== text) statusEl.textContent = text;
  statusEl.classList.toggle('error', error);
}

function render(world) {
  renderClock(world?.clock);
  // The tables are redrawn only when the world changed, so a poll keeps focus and what is open.
  const key = JSON.stringify([world?.basket, world?.orders, world?.rides, world?.state]);
  if (key !== shownWorld) {
    shownWorld = key;
    renderTables(world);
  }
  const lines = world?.basket?.items?.length ?? 0;
  say(`${plural(lines, 'basket line')}, ${plural(world?.orders?.length ?? 0, 'order')}, ${plural(world?.rides?.length ?? 0, 'ride')}; clock ${clockSetting(world?.clock)}`);
}

function renderTables(world) {
  const orders = world?.orders ?? [];
  const rides = world?.rides ?? [];
  clear(basketEl).append(basketTable(world?.basket));
  clear(ordersEl).append(table('orders', 'Orders, newest first', ['Order', 'Restaurant', 'Status', 'Total', 'Placed'],
    orders.map((order) => ({
      id: text(order?.id),
      cells: [text(order?.id), name(order?.restaurant?.name), status(order?.status), money(order?.total), when(order?.placedAt)],
    })), 'No orders.'));
  clear(ridesEl).append(table('rides', 'Rides, newest first', ['Ride', 'Product', 'Status', 'Fare', 'Captain'],
    rides.map((ride) => ({
      id: text(ride?.rideId),
      cells: [text(ride?.rideId), name(ride?.product?.name ?? ride?.productName), status(ride?.status),
        money(ride?.finalFare ?? ride?.fare ?? ride?.fareEstimate), name(ride?.captain?.name)],
    })), 'No rides.'));
  clear(stateBody).append(jsonView(world?.state ?? {}, { open: 2 }));
}

function renderClock(clock) {
  const now = iso(clock?.now);
  const dubai = dubaiTime(clock?.now);
  clear(clockEl).append(
    h('span', { class: 'label' }, 'Clock '),
    h('time', { datetime: now, id: 'world-now' }, now),
    dubai ? h('span', { class: 'dubai' }, ` (${dubai} in Dubai)`) : null,
    h('span', { class: 'how' }, ` · ${clockSetting(clock)}`));
}

/** How the run's time is set, as `careem-mcp world` says it. */
function clockSetting(clock) {
  const setting = clock?.setting;
  let file = 'real time';
  if (setting?.frozen) file = `frozen at ${iso(setting.frozen)}`;
  else if (typeof setting?.offset === 'number') file = `real time ${setting.offset < 0 ? '−' : '+'} ${span(Math.abs(setting.offset))}`;
  if (clock?.fixed) return `fixed by the dashboard's --clock (the run's clock: ${file})`;
  return file;
}

function basketTable(basket) {
  const items = Array.isArray(basket?.items) ? basket.items : [];
  const caption = basket
    ? ['Basket ', text(basket.id), ' at ', name(basket.restaurant?.name)]
    : 'Basket';
  const totals = basket ? [
    ['Subtotal', basket.subtotal],
    ['Delivery fee', basket.deliveryFee],
    ['Service fee', basket.serviceFee],
    ['Discount', basket.discount],
    ['Total', basket.total],
  ].filter(([, value]) => value !== undefined && value !== null) : [];
  const el = table('basket', caption, ['Line', 'Item', 'Quantity', 'Total'],
    items.map((line) => ({
      id: text(line?.basketItemId),
      cells: [text(line?.basketItemId), name(line?.name), text(line?.quantity), money(line?.total)],
    })), 'The basket is empty.');
  if (totals.length) {
    el.append(h('tfoot', {}, totals.map(([label, value]) => h('tr', {},
      h('th', { scope: 'row', colspan: 3 }, label),
      h('td', { class: 'money' }, money(value))))));
  }
  return el;
}

/** A table with its caption and column headers; `empty` fills its one row when it has none. */
function table(kind, caption, headers, rows, empty) {
  return h('table', { class: `world ${kind}`, dataset: { kind } },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((header) => h('th', { scope: 'col' }, header)))),
    h('tbody', {}, rows.length === 0
      ? h('tr', { class: 'empty' }, h('td', { colspan: headers.length }, empty))
      : rows.map((row) => h('tr', { dataset: { id: row.id } }, row.cells.map((cell) => h('td', {}, cell))))));
}

/** A value as a cell: a string as it is, a number as its digits, anything else as JSON; `–`
 * when the answer leaves it out. */
function text(value) {
  if (value === undefined || value === null) return NONE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && 'value' in value) return text(value.value);
  return JSON.stringify(value);
}

/** A localized name by its English, with the Arabic as a tooltip. */
function name(value) {
  const shown = text(value);
  if (typeof value?.localized !== 'string' || !value.localized) return shown;
  return h('span', { title: value.localized }, shown);
}

/** Money as `AED 24.50`. */
function money(value) {
  if (typeof value?.amount === 'number' && typeof value?.currency === 'string') {
    return `${value.currency} ${value.amount.toFixed(2)}`;
  }
  return text(value);
}

function status(value) {
  if (typeof value !== 'string') return text(value);
  return h('span', { class: 'badge-status' }, value);
}

function when(value) {
  if (typeof value !== 'string') return text(value);
  return h('time', { datetime: value }, value);
}

/** An instant to the second, as the CLI prints it (2026-10-05T12:00:00Z). */
function iso(value) {
  const date = new Date(value);
  if (typeof value !== 'string' || Number.isNaN(date.getTime())) return text(value);
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The instant on Dubai's clock, where the world is: `Mon 16:00`. */
function dubaiTime(value) {
  const date = new Date(value);
  if (typeof value !== 'string' || Number.isNaN(date.getTime())) return null;
  return date.toLocaleString('en-GB', { timeZone: 'Asia/Dubai', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** Seconds as `1h 30m`. */
function span(seconds) {
  const parts = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]]) {
    const count = Math.floor(seconds / size);
    if (count) parts.push(`${count}${unit}`);
    seconds -= count * size;
  }
  return parts.join(' ') || '0s';
}
