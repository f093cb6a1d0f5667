// The dashboard in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) beside `careem-mcp serve`, with the official MCP TypeScript SDK client as
// the agent:
//
//   - a call the client makes appears in the live view;
//   - forcing a scenario in the page (by keyboard) changes the client's next answer;
//   - a sequence built in a tool's controls row is followed by the client's next calls;
//   - a call built with the "try a call" form answers as `careem-mcp call` does;
//   - a page on another site cannot write the overrides file;
//   - the run selector shows one run's calls, and a scenario forced in it reaches only that run;
//   - the World view shows a run's clock and basket as `careem-mcp world --json` reports them,
//     and follows `careem-mcp clock` without a reload;
//   - a call the live stream reports refreshes the World view even with the page's timers stopped;
//   - with `dashboard --expected DIR`, Live calls shows the run's verdict and grades it again
//     when the agent's next call changes the world.
//
//   cd tests/browser && npm ci && node --test
//
// CAREEM_MCP_BIN names the binary (default: target/debug/careem-mcp), CHROMIUM the browser
// (default: /usr/bin/chromium). With SCREENSHOTS=1 the views are saved to docs/img/ for
// docs/DASHBOARD.md; otherwise nothing in the repository is written.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.resolve(process.env.CAREEM_MCP_BIN ?? path.join(root, 'target/debug/careem-mcp'));
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const screenshots = process.env.SCREENSHOTS === '1' ? path.join(root, 'docs/img') : null;
const CLOCK = '2026-10-05T12:00:00Z';
const MARINA = { latitude: 25.0866, longitude: 55.1474 };
const WAIT_MS = 15_000;

const BROWSER_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // "Another site" for the cross-site test: evil.test is served from this machine.
  '--host-resolver-rules=MAP evil.test 127.0.0.1',
];

let project;
const children = [];
let serveUrl;
let dashboardUrl;
let browser;
let page;
let agent;

/** Starts the binary in the project folder and resolves with the URL its stderr names; with
 * `clock` false it follows the run's clock instead of the fixed CLOCK. */
function start(args, prefix, { clock = true } = {}) {
  const child = spawn(bin, [...(clock ? ['--clock', CLOCK] : []), ...args], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "${prefix}" line from ${args[0]}: ${seen}`)), 60_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const line = seen.split('\n').slice(0, -1).find((l) => l.startsWith(prefix));
      if (line) {
        clearTimeout(timer);
        resolve(line.match(/http:\/\/\S+/)[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${seen}`)));
  });
}

async function connectAgent() {
  const client = new Client({ name: 'dashboard-browser-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serveUrl)));
  return client;
}

/** `careem-mcp --project <project> ARGS…`, which must succeed; its stdout. */
function cli(...args) {
  const run = spawnSync(bin, ['--project', project, ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, `careem-mcp ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function text(result) {
  return result.content.map((c) => c.text).join('');
}

async function shot(name, target = page) {
  if (!screenshots) return;
  fs.mkdirSync(screenshots, { recursive: true });
  await target.screenshot({ path: path.join(screenshots, `dashboard-${name}.png`), animations: 'disabled' });
}

before(async () => {
  assert.ok(fs.existsSync(bin), `no binary at ${bin} (cargo build first)`);
  assert.ok(fs.existsSync(browserPath), `no browser at ${browserPath} (apt-get install chromium)`);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-dashboard-'));
  fs.cpSync(path.join(root, 'tools'), path.join(project, 'tools'), { recursive: true });
  [serveUrl, dashboardUrl] = await Promise.all([
    start(['serve', '--port', '0'], 'careem-mcp: serving '),
    start(['dashboard', '--port', '0'], 'careem-mcp: dashboard at '),
  ]);
  serveUrl = serveUrl.replace(/\/?$/, '');
  browser = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-')), {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: BROWSER_ARGS,
  });
  page = browser.pages()[0] ?? await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  agent = await connectAgent();
});

after(async () => {
  await agent?.close().catch(() => {});
  await browser?.close().catch(() => {});
  for (const child of children) child.kill();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

test('a call made by an MCP client appears in the live view', async () => {
  await page.goto(`${dashboardUrl}#calls`);
  await page.locator('#live.on').waitFor();
  await agent.callTool({ name: 'get_user_profile', arguments: {} });
  await agent.callTool({ name: 'food_merchant_search', arguments: { ...MARINA, query: 'sushi' } });
  await agent.callTool({ name: 'ride_get_status', arguments: { rideId: '5001002' } });
  const row = page.locator('#calls-list li.call[data-tool="ride_get_status"]');
  await row.waitFor();
  assert.equal(await page.locator('#calls-list li.call').first().getAttribute('data-tool'), 'ride_get_status', 'newest first');
  await row.locator(':scope > details > summary').click();
  const body = row.locator('.call-body');
  await body.waitFor();
  assert.match(await body.textContent(), /"rideId": ?"5001002"/);
  assert.match(await row.locator(':scope > details > summary').textContent(), /http/);
});

test('forcing a scenario in the page changes the next MCP answer', async () => {
  const usual = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  assert.equal(usual.isError ?? false, false);

  await page.keyboard.press('2');
  await page.waitForURL(/#scenarios$/);
  const card = page.locator('section.tool-card[data-tool="get_payment_methods"]');
  const button = card.locator('button[data-scenario="session-expired"]');
  await button.focus();
  await page.keyboard.press('Enter');
  await card.locator('button[data-scenario="session-expired"][aria-pressed="true"]').waitFor();

  const forced = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  assert.equal(forced.isError, true);
  assert.match(text(forced), /session expired/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot('scenarios');

  await card.locator('button.normal').click();
  await card.locator('button[data-scenario="session-expired"][aria-pressed="false"]').waitFor();
  const back = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  assert.deepEqual(back, usual);
});

test('a sequence set in the page is followed by the next MCP calls', async () => {
  await page.goto(`${dashboardUrl}#scenarios`);
  const card = page.locator('section.tool-card[data-tool="get_payment_methods"]');
  const key = (part) => card.locator(`[data-key="get_payment_methods/controls/${part}"]`);
  for (const step of ['cash-only', 'session-expired']) {
    await key('pick').selectOption(step);
    await key('add').focus();
    await page.keyboard.press('Enter');
  }
  await key('apply').focus();
  await page.keyboard.press('Enter');
  await card.locator('.entry-now', { hasText: '["cash-only","session-expired"]' }).waitFor();

  const first = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  const second = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  assert.deepEqual([first.isError ?? false, second.isError ?? false], [false, true], 'the steps in order');

  await key('delay').fill('soon');
  await key('apply').click();
  await card.locator('.control-error', { hasText: 'malformed delay "soon"' }).waitFor();
  await key('clear').click();
  await card.locator('.entry-now', { hasText: 'no entry' }).waitFor();
});

test('a form-built call returns the same answer as careem-mcp call', async () => {
  await page.goto(`${dashboardUrl}#try`);
  await page.locator('#try-tool').selectOption('food_get_restaurant_menu');
  await page.locator('#arg-restaurant_id').fill('30104');
  await page.locator('#arg-latitude').fill(String(MARINA.latitude));
  await page.locator('#arg-longitude').fill(String(MARINA.longitude));
  await page.locator('#try-run').click();
  const raw = page.locator('#try-raw');
  await raw.waitFor({ state: 'attached' });
  const fromPage = JSON.parse(await raw.textContent());

  const args = JSON.stringify({ restaurant_id: 30104, ...MARINA });
  const cli = spawnSync(bin, ['--clock', CLOCK, 'call', 'food_get_restaurant_menu', args, '--compact', '--no-journal'], { cwd: project, encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(fromPage, JSON.parse(cli.stdout));
  const chosen = await page.locator('#try-scenario-used').textContent();
  assert.ok(cli.stderr.includes(`scenario: ${chosen}`), `${chosen} / ${cli.stderr}`);
  await shot('try');
});

test('a cross-origin write is refused', async () => {
  // A page on another site (evil.test, resolved to this machine) tries what a page can: a JSON
  // fetch (needs a CORS preflight), a no-preflight text/plain fetch, and a form post.
  const target = `${dashboardUrl}api/runs/default/scenarios/get_payment_methods`;
  const evil = http.createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><title>evil</title>
<form id="f" method="post" action="${dashboardUrl}api/runs/default/reset" enctype="text/plain" target="sink"><input name='{"a":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
async function attempt(init) {
  try { const r = await fetch(${JSON.stringify(target)}, init); return String(r.status); }
  catch (e) { return 'blocked'; }
}
(async () => {
  const body = JSON.stringify({ scenario: 'session-expired' });
  const json = await attempt({ method: 'PUT', headers: { 'content-type': 'application/json' }, body });
  const plain = await attempt({ method: 'PUT', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body });
  document.getElementById('f').submit();
  document.title = 'done ' + json + ' ' + plain;
})();
</script>`);
  });
  await new Promise((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const evilPage = await browser.newPage();
    await evilPage.goto(`http://evil.test:${evil.address().port}/`);
    await evilPage.waitForFunction(() => document.title.startsWith('done'));
    const [, json] = (await evilPage.title()).split(' ');
    assert.equal(json, 'blocked', 'the JSON write never gets past its preflight');
    await evilPage.close();
  } finally {
    evil.close();
  }
  const scenarios = await (await fetch(`${dashboardUrl}api/runs/default/scenarios`)).json();
  assert.deepEqual(scenarios.tools.filter((t) => t.forced).map((t) => t.tool), [], 'nothing was forced');
  const answer = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
  assert.equal(answer.isError ?? false, false);
  // And the dashboard's own page still may.
  const own = await page.evaluate(async (url) => (await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario: null }) })).status, target);
  assert.equal(own, 200);
});

test('the run selector shows one run: its calls, and its scenarios forced', async () => {
  const RUN = 'browser-run';
  const inRun = new Client({ name: 'dashboard-browser-test', version: '1.0.0' });
  await inRun.connect(new StdioClientTransport({
    command: bin,
    args: ['--clock', CLOCK, '--run', RUN, 'serve', '--stdio'],
    cwd: project,
    env: getDefaultEnvironment(),
    stderr: 'ignore',
  }));
  try {
    // A run's folder is made by its first journalled call; then a load of its own (a change
    // of #fragment loads nothing) lists it.
    await inRun.callTool({ name: 'get_user_profile', arguments: {} });
    await page.goto(`${dashboardUrl}#calls`);
    await page.reload();
    await page.locator(`#run-names option[value="${RUN}"]`).waitFor({ state: 'attached' });
    await page.locator('#run').fill(RUN);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => new URL(url).searchParams.get('run') === RUN);
    await page.locator('#live.on').waitFor();
    assert.equal(await page.locator('#run').inputValue(), RUN);

    // The default run's call stays out of the run's view; the run's own call comes in.
    await agent.callTool({ name: 'reverse_geocode', arguments: MARINA });
    await inRun.callTool({ name: 'get_user_profile', arguments: {} });
    await page.locator('#calls-list li.call[data-tool="get_user_profile"]').nth(1).waitFor();
    const tools = await page.locator('#calls-list li.call').evaluateAll((rows) => rows.map((r) => r.dataset.tool));
    assert.deepEqual(tools, ['get_user_profile', 'get_user_profile']);

    await page.keyboard.press('2');
    await page.waitForURL(/#scenarios$/);
    const card = page.locator('section.tool-card[data-tool="get_payment_methods"]');
    await card.locator('button[data-scenario="session-expired"]').click();
    await card.locator('button[data-scenario="session-expired"][aria-pressed="true"]').waitFor();
    const forced = await inRun.callTool({ name: 'get_payment_methods', arguments: {} });
    assert.equal(forced.isError, true);
    const elsewhere = await agent.callTool({ name: 'get_payment_methods', arguments: {} });
    assert.equal(elsewhere.isError ?? false, false);
    const file = JSON.parse(fs.readFileSync(path.join(project, '.run', 'runs', RUN, 'overrides.json'), 'utf8'));
    assert.deepEqual(file, { get_payment_methods: 'session-expired' });

    // An empty run is the default run again.
    await page.locator('#run').fill('');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !new URL(url).searchParams.has('run'));
    await card.locator('button[data-scenario="session-expired"][aria-pressed="false"]').waitFor();
  } finally {
    await inRun.close().catch(() => {});
  }
});

/** A value as the World view shows it in a cell: a localized name by its `value`, money as
 * `AED 24.50`, nothing as `–`. */
function cell(value) {
  if (value === undefined || value === null) return '–';
  if (typeof value.amount === 'number' && typeof value.currency === 'string') return `${value.currency} ${value.amount.toFixed(2)}`;
  if (typeof value === 'object' && 'value' in value) return cell(value.value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The rows of one of the World view's tables, as the text of their cells. */
async function rows(table) {
  return page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
}

test('the World view shows the run\'s clock and basket, and follows careem-mcp clock live', async () => {
  const SET = '2026-10-06T08:00:00Z';
  const RUN = 'world-run';
  const RUN_SET = '2026-10-07T19:15:00Z';
  const RUN_ADVANCED = '2026-10-07T20:45:00Z';
  // A dashboard without --clock: its World view shows the time the run's clock gives.
  const url = await start(['dashboard', '--port', '0'], 'careem-mcp: dashboard at ', { clock: false });
  const now = page.locator('#world-now');
  try {
    await page.goto(`${url}#world`);
    await page.locator('#world-clock', { hasText: 'real time' }).waitFor();
    const shown = Date.parse(await now.getAttribute('datetime'));
    assert.ok(Math.abs(shown - Date.now()) < 5 * 60_000, `${await now.textContent()} is about now`);
    assert.equal(await page.locator('#world-status').getAttribute('aria-live'), 'polite');

    // The clock moved from the command line appears without a reload.
    cli('clock', 'set', SET);
    await page.locator(`#world-now[datetime="${SET}"]`).waitFor();
    assert.equal(await now.textContent(), SET);
    await page.locator('#world-clock', { hasText: `frozen at ${SET}` }).waitFor();
    await page.locator('#world-status', { hasText: `clock frozen at ${SET}` }).waitFor();

    // The tables say what `careem-mcp world --json` says.
    const world = JSON.parse(cli('world', '--json'));
    assert.equal(world.clock.now, SET);
    const basket = page.locator('#world-basket table');
    assert.equal(await basket.locator('thead th').count(), 4);
    if (world.basket) {
      assert.equal(await basket.locator('caption').textContent(), `Basket ${cell(world.basket.id)} at ${cell(world.basket.restaurant?.name)}`);
      assert.deepEqual(await rows('#world-basket'), world.basket.items.map((line) => [line.basketItemId, line.name, line.quantity, line.total].map(cell)));
      assert.equal(await basket.locator('tfoot tr:last-child td').textContent(), cell(world.basket.total));
    } else {
      assert.deepEqual(await rows('#world-basket'), [['The basket is empty.']]);
    }
    assert.equal(await page.locator('#world-orders tbody tr[data-id]').count(), world.orders.length);
    assert.equal(await page.locator('#world-rides tbody tr[data-id]').count(), world.rides.length);

    // A run's clock moves only that run's view.
    cli('--run', RUN, 'clock', 'set', RUN_SET);
    await page.goto(`${url}?run=${RUN}#world`);
    await page.locator(`#world-now[datetime="${RUN_SET}"]`).waitFor();
    cli('--run', RUN, 'clock', 'advance', '90m');
    await page.locator(`#world-now[datetime="${RUN_ADVANCED}"]`).waitFor();
    const inRun = JSON.parse(cli('--run', RUN, 'world', '--json'));
    assert.equal(inRun.clock.now, RUN_ADVANCED);
    await page.goto(`${url}#world`);
    await page.locator(`#world-now[datetime="${SET}"]`).waitFor();
    await shot('world');
  } finally {
    cli('clock', 'real');
    cli('--run', RUN, 'clock', 'real');
  }
});

test('a call the live stream reports refreshes the World view, with its timers stopped', async () => {
  const SET = '2026-10-08T06:30:00Z';
  const url = await start(['dashboard', '--port', '0'], 'careem-mcp: dashboard at ', { clock: false });
  // A browser of its own, whose page timers this test stops: only the call can refresh the view.
  const own = await chromium.launch({ executablePath: browserPath, headless: true, args: BROWSER_ARGS });
  try {
    const context = await own.newContext();
    const view = await context.newPage();
    view.setDefaultTimeout(WAIT_MS);
    await view.clock.install();
    const pending = new Set();
    view.on('request', (r) => { if (/\/api\/runs\/[^/]+\/world$/.test(new URL(r.url()).pathname)) pending.add(r); });
    for (const done of ['requestfinished', 'requestfailed']) view.on(done, (r) => pending.delete(r));
    await view.goto(`${url}#world`);
    await view.locator('#live.on').waitFor();
    await view.locator('#world-clock', { hasText: 'real time' }).waitFor();
    await view.clock.pauseAt(Date.now() + 60_000);
    await waitUntil(() => pending.size === 0, 'the last look at the world is answered');

    cli('clock', 'set', SET);
    await agent.callTool({ name: 'get_user_profile', arguments: {} });
    await view.locator(`#world-now[datetime="${SET}"]`).waitFor();
  } finally {
    await own.close();
    cli('clock', 'real');
  }
});

test('the run\'s verdict follows the agent\'s calls', async () => {
  const RUN = 'graded-run';
  const expected = path.join(project, 'expected');
  fs.mkdirSync(expected, { recursive: true });
  fs.writeFileSync(path.join(expected, `${RUN}.json`), JSON.stringify({
    actions: [{ tool: 'cart_clear', arguments: {} }],
    calls: { never: ['ride_book'] },
  }));
  const [stateful, url] = await Promise.all([
    start(['--stateful', 'serve', '--port', '0'], 'careem-mcp: serving '),
    start(['dashboard', '--port', '0', '--expected', expected], 'careem-mcp: dashboard at '),
  ]);
  const graded = new Client({ name: 'dashboard-browser-test', version: '1.0.0' });
  await graded.connect(new StreamableHTTPClientTransport(new URL(`${stateful.replace(/\/?$/, '')}/${RUN}`)));
  try {
    await graded.callTool({ name: 'cart_get_basket', arguments: {} });
    await page.goto(`${url}?run=${RUN}#calls`);
    const verdict = page.locator('#verdict');
    await page.locator('#verdict-outcome', { hasText: 'Fails' }).waitFor();
    assert.equal(await verdict.getAttribute('data-verdict'), 'failed');
    const lines = await page.locator('#verdict-lines li').allTextContents();
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /^basket: expected nothing, got /);
    assert.match(await verdict.textContent(), /1 call/);

    // The agent's next call changes the world; the verdict follows without a reload.
    await graded.callTool({ name: 'cart_clear', arguments: {} });
    await page.locator('#verdict-outcome', { hasText: 'Passes' }).waitFor();
    assert.equal(await page.locator('#verdict-lines').count(), 0);
    assert.match(await verdict.textContent(), /2 calls/);

    // The default run has no expected file, and the page says so.
    await page.goto(`${url}#calls`);
    await page.locator('#verdict[data-verdict="none"]', { hasText: 'No expected file for this run' }).waitFor();
  } finally {
    await graded.close().catch(() => {});
  }
});

/** Resolves when `condition()` holds, checking every few milliseconds; fails after WAIT_MS. */
async function waitUntil(condition, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('screenshots of every view', { skip: !screenshots && 'screenshots only' }, async () => {
  await agent.callTool({ name: 'cart_get_basket', arguments: {} });
  // A fresh load: going to #calls from another view keeps the page and what is open in it.
  await page.goto(`${dashboardUrl}#calls`);
  await page.reload();
  const ride = page.locator('#calls-list li.call[data-tool="ride_get_status"]').first();
  await ride.locator(':scope > details > summary').click();
  await ride.locator('.call-body').waitFor();
  await shot('calls');
  await page.goto(`${dashboardUrl}#tools`);
  const def = page.locator('details.tool-def[data-tool="food_get_restaurant_menu"]');
  // The view lints every file first, which takes a while on a busy machine.
  await def.locator(':scope > summary').click({ timeout: 60_000 });
  await def.locator('.def-body').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await def.scrollIntoViewIfNeeded();
  await shot('tools');
  await page.setViewportSize({ width: 420, height: 860 });
  await page.goto(`${dashboardUrl}#calls`);
  await page.reload();
  await page.locator('#calls-list li.call').first().waitFor();
  await shot('narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
});
