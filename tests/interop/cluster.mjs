#!/usr/bin/env node
// Several careem-mcp instances behind nginx, as deploy/nginx.conf sets them up: three `serve`
// processes on free loopback ports sharing one project folder, nginx in front of them on
// another, and clients of the official TypeScript SDK through it.
//
//   node tests/interop/cluster.mjs <path/to/careem-mcp> <repo root> [RUN...]
//
// For the default run (plain /mcp) and each RUN named (/mcp/<run>, forced with `--run`):
//   - a food journey through nginx, each id taken from the previous answer;
//   - a scenario forced once reaches every instance, asked directly and through nginx;
//   - the run's journal holds every call the clients made exactly once;
//   - killing one instance loses only the sessions it held: their clients get production's
//     answer for a gone session (404 `session not found`), the others go on.
// Then check.mjs runs through nginx. Prints `ok - …` / `not ok - …` per check, then
// `N passed, M failed`; exits 1 when anything failed.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Tap, assert, show } from './tap.mjs';

const STARTUP_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const OVERALL_TIMEOUT_MS = 300_000;
const INSTANCES = 3;
// Sessions opened for the kill check, each from its own loopback address so that the hash
// (run and client address) spreads them over the instances.
const SESSIONS = 12;

const [binArg, rootArg, ...runs] = process.argv.slice(2);
if (!binArg || !rootArg) {
  console.error('usage: node cluster.mjs <path/to/careem-mcp> <repo root> [RUN...]');
  process.exit(2);
}
const bin = path.resolve(binArg);
const root = path.resolve(rootArg);
const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-cluster-'));
const project = path.join(tmp, 'project');
fs.mkdirSync(project);
// Every instance and every command below share this project folder and nothing else.
const shared = ['--project', project, '--tools', path.join(root, 'tools')];
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAREEM_MCP_')));

// ---------------------------------------------------------------------------------------------
// Reporting

const tap = new Tap();
const { report, check } = tap;

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set();
function killChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Starts one `serve` (on `port`, or a free one); resolves once it prints its URL. */
function startInstance(port = 0) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...shared, 'serve', '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv });
    children.add(child);
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no "serving" line within ${STARTUP_TIMEOUT_MS} ms:\n${stderr}`)), STARTUP_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = stderr.match(/careem-mcp: serving \d+ tools at (http:\/\/127\.0\.0\.1:(\d+))\/mcp /);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1], port: Number(m[2]), addr: `127.0.0.1:${m[2]}` });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited early (code ${code}, signal ${signal}):\n${stderr}`));
    });
  });
}

/** A port nothing listens on now (nginx cannot listen on port 0 and say which it got). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** deploy/nginx.conf with this check's ports, log and temporary folders. */
function nginxConfig(instances, port, dir) {
  let text = fs.readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8');
  const servers = [...text.matchAll(/^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;$/gm)];
  assert(servers.length === INSTANCES, `deploy/nginx.conf lists ${servers.length} upstream servers, want ${INSTANCES}`);
  let i = 0;
  text = text.replace(/^(\s*)server 127\.0\.0\.1:\d+/gm, (_, indent) => `${indent}server 127.0.0.1:${instances[i++].port}`);
  const replace = (pattern, by) => {
    assert(pattern.test(text), `deploy/nginx.conf has no ${pattern}`);
    text = text.replace(pattern, by);
  };
  replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${port};`);
  replace(/access_log \S+ careem_mcp;/, `access_log ${path.join(dir, 'access.log')} careem_mcp;`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${path.join(dir, kind)};`)
    .join('\n');
  replace(/^http \{$/m, `http {\n${temp}`);
  return text;
}

function startNginx(instances, port) {
  const dir = path.join(tmp, 'nginx');
  fs.mkdirSync(dir);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(instances, port, dir));
  const args = ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), '-g', `daemon off; pid ${path.join(dir, 'nginx.pid')};`];
  const test = spawnSync('nginx', [...args, '-t'], { encoding: 'utf8' });
  assert(test.status === 0, `nginx -t refuses the configuration:\n${test.stderr}`);
  const child = spawn('nginx', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  return { child, base: `http://127.0.0.1:${port}`, accessLog: path.join(dir, 'access.log') };
}

/** nginx says nothing when it is ready: ask /health through it until it answers. */
async function waitHealthy(base) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return res.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${base}/health did not answer within ${STARTUP_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `careem-mcp <args>` on the shared project; its stdout, or an error with its stderr. */
function cli(args) {
  const out = spawnSync(bin, [...shared, ...args], { encoding: 'utf8', env: cleanEnv });
  assert(out.status === 0, `careem-mcp ${args.join(' ')} exited ${out.status}:\n${out.stderr}`);
  return out.stdout;
}

// ---------------------------------------------------------------------------------------------
// Clients

/**
 * A fetch whose connections leave from `localAddress` (any of 127/8), so that nginx sees each
 * client as its own address.
 */
function fetchFrom(localAddress) {
  const agent = new http.Agent({ keepAlive: true, localAddress });
  const fetchFn = (url, init = {}) =>
    new Promise((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers ?? {}));
      const req = http.request(new URL(url), { method: init.method ?? 'GET', headers, agent }, (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        const body = res.statusCode === 204 || res.statusCode === 304 ? null : Readable.toWeb(res);
        resolve(new Response(body, { status: res.statusCode, headers: out }));
      });
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.end(init.body ?? undefined);
    });
  fetchFn.close = () => agent.destroy();
  return fetchFn;
}

const mcpPath = (run) => (run ? `/mcp/${run}` : '/mcp');

/** An SDK client connected to `base` for `run`, from `localAddress`. */
async function connect(base, run, localAddress = '127.0.0.1') {
  const fetchFn = fetchFrom(localAddress);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${mcpPath(run)}`), { fetch: fetchFn });
  const client = new Client({ name: 'careem-mcp-cluster', version: '1.0.0' });
  client.onerror = () => {};
  await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  return {
    client,
    session: transport.sessionId,
    calls: 0,
    async call(name, args) {
      this.calls++;
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
      assert(!result.isError, `${name} ${show(args)} → isError: ${result.content?.[0]?.text}`);
      return result.structuredContent;
    },
    async close() {
      await client.close().catch(() => {});
      fetchFn.close();
    },
  };
}

/** The run's journal, as `careem-mcp calls --json` reads it. */
function journal(run) {
  return JSON.parse(cli([...(run ? ['--run', run] : []), 'calls', '--json']));
}

/** Each session's calls in `entries`, by session id. */
function callsBySession(entries) {
  const counts = new Map();
  for (const entry of entries) counts.set(entry.session, (counts.get(entry.session) ?? 0) + 1);
  return counts;
}

/** Every client's calls appear in the journal exactly as many times as it made them. */
function assertJournalled(run, clients) {
  const counts = callsBySession(journal(run));
  for (const c of clients) {
    assert(counts.get(c.session) === c.calls, `session ${c.session}: ${c.calls} calls made, ${counts.get(c.session) ?? 0} journalled`);
  }
}

// ---------------------------------------------------------------------------------------------
// The checks of one run

/** Search, menu, basket, order, status: each id from the answer before. */
async function foodJourney(agent) {
  const saved = await agent.call('get_saved_locations', {});
  const home = saved.savedLocations.find((s) => s.label === 'Home')?.location;
  assert(home, `no Home in ${show(saved)}`);
  const near = { latitude: home.latitude, longitude: home.longitude };
  const found = await agent.call('food_merchant_search', { ...near, query: 'lebanese' });
  const restaurant = found.restaurants?.[0];
  assert(restaurant, `the search finds nothing: ${show(found)}`);
  const { restaurant: menu } = await agent.call('food_get_restaurant_menu', { ...near, restaurant_id: restaurant.id });
  assert(menu.id === restaurant.id, `the menu is of ${menu.id}, not ${restaurant.id}`);
  const item = menu.menu.categories.flatMap((c) => c.items).find((i) => i.isAvailable && !i.hasOptions);
  assert(item, 'no plain available item on the menu');
  const { basket } = await agent.call('cart_add_item', { restaurant_id: restaurant.id, item_id: item.id, quantity: 2 });
  assert(basket.items.some((line) => line.itemId === item.id && line.quantity === 2), `the basket lacks the item: ${show(basket)}`);
  const { order } = await agent.call('food_place_order', {
    basket_id: basket.id,
    payment_method_id: 'PM-CASH',
    delivery_location_uuid: home.locationUuid,
  });
  const status = await agent.call('food_get_order_status', { order_id: order.id });
  assert(status.order.id === order.id, `status of ${status.order.id}, not ${order.id}`);
}

const FORCED_TOOL = 'food_get_restaurant_menu';
const FORCED_SCENARIO = 'upstream-unavailable';

async function runChecks(base, instances, accessLog, run, runIndex) {
  const label = run ? `run ${run}` : 'default run';
  const clients = [];
  await check(`${label}: a food journey through nginx`, async () => {
    const agent = await connect(base, run);
    clients.push(agent);
    await foodJourney(agent);
  });

  await check(`${label}: a scenario forced once reaches every instance, directly and through nginx`, async () => {
    cli([...(run ? ['--run', run] : []), 'scenario', FORCED_TOOL, FORCED_SCENARIO]);
    const asked = [];
    for (const instance of instances) asked.push(await connect(instance.base, run));
    for (let i = 0; i < INSTANCES; i++) asked.push(await connect(base, run, `127.0.0.${100 + i}`));
    clients.push(...asked);
    for (const agent of asked) await agent.call(FORCED_TOOL, { restaurant_id: 30104, latitude: 25.0866, longitude: 55.1474 });
    const sessions = new Set(asked.map((a) => a.session));
    const seen = journal(run).filter((e) => sessions.has(e.session));
    assert(seen.length === asked.length, `${seen.length} journal lines for ${asked.length} calls`);
    const wrong = seen.filter((e) => e.scenario !== FORCED_SCENARIO || !e.forced);
    assert(wrong.length === 0, `answered otherwise: ${show(wrong.map((e) => [e.session, e.scenario]))}`);
    cli([...(run ? ['--run', run] : []), 'scenario', FORCED_TOOL]);
  });

  await check(`${label}: the journal holds every call exactly once`, async () => {
    assert(clients.length > 0, 'no client got as far as a call');
    assertJournalled(run, clients);
  });

  await check(`${label}: killing one instance loses only the sessions it held`, async () => {
    // Each run's clients come from addresses of their own, so that runs spread differently.
    const address = (i) => `127.${10 + runIndex}.0.${i + 1}`;
    const agents = [];
    for (let i = 0; i < SESSIONS; i++) agents.push(await connect(base, run, address(i)));
    clients.push(...agents);
    for (const agent of agents) await agent.call('get_saved_locations', {});
    const issued = sessionIssuers(accessLog);
    const held = new Map(instances.map((x) => [x.addr, []]));
    for (const agent of agents) {
      const by = issued.get(agent.session);
      assert(held.has(by), `session ${agent.session} was issued by ${by}, not an instance`);
      held.get(by).push(agent);
    }
    const spread = [...held].map(([addr, on]) => `${addr}: ${on.length}`).join(', ');
    const victimIndex = instances.findIndex((x) => held.get(x.addr).length > 0 && held.get(x.addr).length < agents.length);
    assert(victimIndex >= 0, `the hash put all ${agents.length} sessions on one instance (${spread})`);
    const victim = instances[victimIndex];
    const lost = held.get(victim.addr);
    const gone = new Promise((r) => victim.child.once('exit', r));
    victim.child.kill('SIGKILL');
    await gone;
    for (const agent of agents) {
      if (lost.includes(agent)) {
        const answer = await rawCall(base, run, agent.session);
        assert(answer.status === 404 && answer.body === 'session not found', `a session of the killed instance got ${answer.status} ${show(answer.body)}`);
      } else {
        await agent.call('get_saved_locations', {});
      }
    }
    // A new session from a client whose key led to the killed instance finds another.
    const fresh = await connect(base, run, address(agents.indexOf(lost[0])));
    clients.push(fresh);
    await fresh.call('get_saved_locations', {});
    assertJournalled(run, clients);
    instances[victimIndex] = await startInstance(victim.port);
  });
  for (const c of clients) await c.close();
}

/** Which instance issued each session id, from nginx's access log. */
function sessionIssuers(accessLog) {
  const holders = new Map();
  for (const line of fs.readFileSync(accessLog, 'utf8').split('\n')) {
    const m = line.match(/ upstream=(\S+) .* issued=(\S+)$/);
    if (m && m[2] !== '-') holders.set(m[2], m[1].split(', ').pop());
  }
  return holders;
}

/** A tools/call in `session` as plain HTTP: the status and body a gone session gets. */
async function rawCall(base, run, session) {
  const res = await fetch(`${base}${mcpPath(run)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'get_saved_locations', arguments: {} } }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, body: (await res.text()).trim() };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const instances = [];
  for (let i = 0; i < INSTANCES; i++) instances.push(await startInstance());
  const port = await freePort();
  const nginx = startNginx(instances, port);
  await check('nginx answers /health from an instance', async () => {
    const health = await waitHealthy(nginx.base);
    assert(typeof health.tools === 'number' && health.status === 'ok', show(health));
  });
  await check('check.mjs through nginx', async () => {
    const overrides = path.join(project, '.run', 'overrides.json');
    const out = spawnSync('node', [path.join(here, 'check.mjs'), bin, root, '--url', nginx.base, '--overrides', overrides], {
      encoding: 'utf8',
      env: cleanEnv,
      timeout: 200_000,
    });
    process.stdout.write(out.stdout.replace(/^/gm, '#   '));
    assert(out.status === 0, `check.mjs exited ${out.status}`);
  });
  const all = [undefined, ...runs];
  for (const [i, run] of all.entries()) await runChecks(nginx.base, instances, nginx.accessLog, run, i);
}

const watchdog = setTimeout(() => {
  report(false, `finished within ${OVERALL_TIMEOUT_MS / 1000} s`, 'timed out');
  finish();
}, OVERALL_TIMEOUT_MS);

function finish() {
  clearTimeout(watchdog);
  killChildren();
  if (tap.failed > 0) {
    for (const log of ['error.log', 'access.log']) {
      const file = path.join(tmp, 'nginx', log);
      if (fs.existsSync(file)) console.log(`# nginx ${log}:\n${fs.readFileSync(file, 'utf8').replace(/^/gm, '#   ')}`);
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  tap.finish();
}

process.on('SIGINT', () => {
  killChildren();
  process.exit(130);
});

main()
  .catch((e) => report(false, 'cluster.mjs ran to the end', e instanceof Error ? e.stack : String(e)))
  .finally(finish);
