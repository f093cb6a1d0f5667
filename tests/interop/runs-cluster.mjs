#!/usr/bin/env node
// Each run living on one instance, as deploy/nginx-runs.conf sets it up: three `careem-mcp
// serve --stateful --admin` processes, each with a project folder of its own (three "nodes",
// nothing shared), nginx in front of their MCP ports and their admin ports, clients of the
// official TypeScript SDK through it, and every control through `careem-mcp --server` pointed
// at nginx's admin face.
//
//   node tests/interop/runs-cluster.mjs <path/to/careem-mcp> <repo root>
//
//   - parallel runs, each: scenarios forced, its clock set and advanced, a stateful food
//     journey and a ride journey, graded; every run's world, journal and verdict exact;
//   - each run lives on exactly one instance, MCP and admin alike;
//   - killing one instance loses only the runs it owned: the others go on;
//   - a request to the admin face without the token, or with a wrong one, changes nothing.
// Prints `ok - …` / `not ok - …` per check, then `N passed, M failed`; exits 1 when anything
// failed.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Tap, assert, show } from './tap.mjs';

const STARTUP_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const OVERALL_TIMEOUT_MS = 300_000;
const INSTANCES = 3;
const RUNS = 6;
const TOKEN = 'runs-cluster-admin-token';
const CLOCK = '2026-10-05T12:00:00Z';
const LATER = '2026-10-05T13:30:00Z';

const [binArg, rootArg] = process.argv.slice(2);
if (!binArg || !rootArg) {
  console.error('usage: node runs-cluster.mjs <path/to/careem-mcp> <repo root>');
  process.exit(2);
}
const bin = path.resolve(binArg);
const root = path.resolve(rootArg);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-runs-'));
const tokenFile = path.join(tmp, 'token');
fs.writeFileSync(tokenFile, `${TOKEN}\n`);
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAREEM_MCP_')));

const tap = new Tap();
const { report, check } = tap;

const children = new Set();
function killChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

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

/** One "node": `serve --stateful --admin` on a project folder of its own. */
function startInstance(index, port, adminPort) {
  const project = path.join(tmp, `node${index}`);
  fs.mkdirSync(project, { recursive: true });
  const args = ['--project', project, '--tools', path.join(root, 'tools'), '--stateful',
    '--admin-token-file', tokenFile, 'serve', '--port', String(port), '--admin', `127.0.0.1:${adminPort}`];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv });
    children.add(child);
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no "serving" line within ${STARTUP_TIMEOUT_MS} ms:\n${stderr}`)), STARTUP_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (/careem-mcp: serving \d+ tools at /.test(stderr)) {
        clearTimeout(timer);
        resolve({ child, project, port, adminPort, admin: `http://127.0.0.1:${adminPort}` });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited early (code ${code}, signal ${signal}):\n${stderr}`));
    });
  });
}

/** deploy/nginx-runs.conf with this check's ports, log and temporary folders. */
function nginxConfig(instances, mcpPort, adminPort, doors, dir) {
  let text = fs.readFileSync(path.join(root, 'deploy', 'nginx-runs.conf'), 'utf8');
  const replace = (pattern, by) => {
    assert(pattern.test(text), `deploy/nginx-runs.conf has no ${pattern}`);
    text = text.replace(pattern, by);
  };
  instances.forEach((instance, i) => {
    const n = i + 1;
    replace(new RegExp(`(upstream careem_mcp_${n}_mcp +\\{ server )127\\.0\\.0\\.1:\\d+`), `$1127.0.0.1:${instance.port}`);
    replace(new RegExp(`(upstream careem_mcp_${n}_admin \\{ server )127\\.0\\.0\\.1:\\d+`), `$1127.0.0.1:${instance.adminPort}`);
    replace(new RegExp(`server 127\\.0\\.0\\.1:871${n} max_fails`), `server 127.0.0.1:${doors[i]} max_fails`);
    replace(new RegExp(`listen 127\\.0\\.0\\.1:871${n};`), `listen 127.0.0.1:${doors[i]};`);
  });
  replace(/listen 127\.0\.0\.1:8787;/, `listen 127.0.0.1:${mcpPort};`);
  replace(/listen 127\.0\.0\.1:8790;/, `listen 127.0.0.1:${adminPort};`);
  text = text.replaceAll(/access_log \S+ careem_mcp;/g, `access_log ${path.join(dir, 'access.log')} careem_mcp;`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${path.join(dir, kind)};`)
    .join('\n');
  replace(/^http \{$/m, `http {\n${temp}`);
  return text;
}

async function startNginx(instances) {
  const dir = path.join(tmp, 'nginx');
  fs.mkdirSync(dir);
  const [mcpPort, adminPort, ...doors] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(instances, mcpPort, adminPort, doors, dir));
  const args = ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), '-g', `daemon off; pid ${path.join(dir, 'nginx.pid')};`];
  const test = spawnSync('nginx', [...args, '-t'], { encoding: 'utf8' });
  assert(test.status === 0, `nginx -t refuses the configuration:\n${test.stderr}`);
  const child = spawn('nginx', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  return { child, mcp: `http://127.0.0.1:${mcpPort}`, admin: `http://127.0.0.1:${adminPort}` };
}

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

/** `careem-mcp --server <nginx admin> --run <run> <args>`, asynchronously; stdout, or throws. */
function control(server, run, args, { code = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--server', server, '--run', run, ...args], {
      env: { ...cleanEnv, CAREEM_MCP_ADMIN_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    // `close`, not `exit`: the output is read to its end first.
    child.on('close', (status) => {
      if (status === code) resolve({ stdout, stderr });
      else reject(new Error(`careem-mcp --run ${run} ${args.join(' ')} exited ${status}, not ${code}:\n${stderr}`));
    });
  });
}

async function connect(base, run) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${run}`));
  const client = new Client({ name: 'careem-mcp-runs-cluster', version: '1.0.0' });
  client.onerror = () => {};
  await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  return {
    calls: 0,
    async call(name, args) {
      this.calls++;
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
      assert(!result.isError && !result.structuredContent?.error, `${name} ${show(args)} → ${result.content?.[0]?.text}`);
      return result.structuredContent;
    },
    close: () => client.close().catch(() => {}),
  };
}

const RIDE = { productId: 1101, pickupLatitude: 25.0805, pickupLongitude: 55.1403, dropoffLatitude: 25.1972, dropoffLongitude: 55.2797 };

/** A food journey and a ride, each id from the answer before; the actions to expect. */
async function journeys(agent) {
  const saved = await agent.call('get_saved_locations', {});
  const home = saved.savedLocations.find((s) => s.label === 'Home')?.location;
  assert(home, `no Home in ${show(saved)}`);
  const near = { latitude: home.latitude, longitude: home.longitude };
  await agent.call('cart_clear', {});
  const found = await agent.call('food_merchant_search', { ...near, query: 'lebanese' });
  const restaurant = found.restaurants?.[0];
  assert(restaurant, `the search finds nothing: ${show(found)}`);
  const { restaurant: menu } = await agent.call('food_get_restaurant_menu', { ...near, restaurant_id: restaurant.id });
  const item = menu.menu.categories.flatMap((c) => c.items).find((i) => i.isAvailable && !i.hasOptions);
  assert(item, 'no plain available item on the menu');
  const add = { restaurant_id: restaurant.id, item_id: item.id, quantity: 2 };
  const { basket } = await agent.call('cart_add_item', add);
  const methods = await agent.call('get_payment_methods', {});
  const cash = methods.paymentMethods?.find((m) => m.id === 'PM-CASH');
  assert(cash && methods.paymentMethods.length === 1, `the forced cash-only answer: ${show(methods)}`);
  const place = { basket_id: basket.id, payment_method_id: 'PM-CASH', delivery_location_uuid: home.locationUuid };
  const { order } = await agent.call('food_place_order', place);
  const { ride } = await agent.call('ride_book', RIDE);
  await agent.call('ride_get_status', { rideId: ride.rideId });
  const expected = {
    actions: [
      { tool: 'cart_clear', arguments: {} },
      { tool: 'cart_add_item', arguments: add },
      { tool: 'food_place_order', arguments: { ...place, basket_id: '{{results.1.basket.id}}' } },
      { tool: 'ride_book', arguments: RIDE },
    ],
    calls: { at_most: { food_place_order: 1, ride_book: 1 }, max_total: 20 },
  };
  return { order: order.id, ride: ride.rideId, expected };
}

/** Which instances hold `run`: those whose own admin API lists it. */
async function owners(instances, run) {
  const held = [];
  for (const [i, instance] of instances.entries()) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) continue;
    const res = await fetch(`${instance.admin}/runs`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const { runs } = await res.json();
    if (runs.includes(run)) held.push(i);
  }
  return held;
}

/**
 * RUNS run names that nginx's hash places on more than one instance, each made (its clock set)
 * and its instance noted. The doors' ports are random, so the hash of a name is too: six names
 * can all land on one instance. Names are tried in turn, and once all but one place is taken by
 * a single instance, only a name on another instance takes the last.
 */
async function spreadRuns(nginx, instances) {
  const chosen = [];
  const owner = new Map();
  for (let i = 0; chosen.length < RUNS; i++) {
    assert(i < 64, `64 run names, and the hash placed them all on one instance: ${show([...owner])}`);
    const run = `cluster-run-${i}`;
    await control(nginx.admin, run, ['clock', 'set', CLOCK]);
    const held = await owners(instances, run);
    assert(held.length === 1, `${run} is on instances ${show(held)}`);
    const placed = new Set(chosen.map((r) => owner.get(r)));
    if (chosen.length === RUNS - 1 && placed.size === 1 && placed.has(held[0])) continue;
    chosen.push(run);
    owner.set(run, held[0]);
  }
  return { runs: chosen, owner };
}

async function oneRun(nginx, run) {
  await control(nginx.admin, run, ['scenario', 'get_payment_methods', 'cash-only']);
  const agent = await connect(nginx.mcp, run);
  const walked = await journeys(agent);
  await agent.close();
  const advanced = await control(nginx.admin, run, ['clock', 'advance', '90m']);
  assert(advanced.stdout === `clock: ${LATER} (frozen)\n`, `clock advance said ${show(advanced.stdout)}`);
  const world = JSON.parse((await control(nginx.admin, run, ['world', '--json'])).stdout);
  const mine = (list) => list.filter((x) => x.madeBy === 'agent');
  const orders = mine(world.orders);
  const rides = mine(world.rides);
  assert(orders.length === 1 && orders[0].id === walked.order, `${run}: the agent's orders ${show(orders.map((o) => o.id))}, want [${walked.order}]`);
  assert(orders[0].status === 'DELIVERED', `${run}: order ${walked.order} is ${orders[0].status} 90 minutes on`);
  assert(rides.length === 1 && rides[0].rideId === walked.ride, `${run}: the agent's rides ${show(rides.map((r) => r.rideId))}`);
  assert(world.clock.now === LATER, `${run}: the world's clock ${world.clock.now}`);
  const journal = JSON.parse((await control(nginx.admin, run, ['calls', '--json'])).stdout);
  assert(journal.length === agent.calls, `${run}: ${journal.length} journal lines for ${agent.calls} calls`);
  const methods = journal.filter((e) => e.tool === 'get_payment_methods');
  assert(methods.length === 1 && methods[0].scenario === 'cash-only' && methods[0].forced, `${run}: get_payment_methods answered ${show(methods)}`);
  const expectedFile = path.join(tmp, `${run}.json`);
  // A bare placeholder is inserted as JSON (the basket id is a number), a quoted one as text.
  fs.writeFileSync(expectedFile, JSON.stringify(walked.expected).replaceAll('"{{results.1.basket.id}}"', '{{results.1.basket.id}}'));
  const graded = JSON.parse((await control(nginx.admin, run, ['grade', '--format', 'json', expectedFile])).stdout);
  assert(graded.passed === true && graded.verdicts[0].calls === agent.calls, `${run}: the verdict ${show(graded)}`);
  return walked;
}

async function main() {
  const instances = [];
  for (let i = 0; i < INSTANCES; i++) instances.push(await startInstance(i + 1, await freePort(), await freePort()));
  const nginx = await startNginx(instances);
  await check('nginx answers /health from an instance', async () => {
    const health = await waitHealthy(nginx.mcp);
    assert(health.status === 'ok', show(health));
  });
  const { runs, owner: placed } = await spreadRuns(nginx, instances);
  const done = new Map();
  await check(`${RUNS} runs in parallel through nginx: scenarios, clock, a food and a ride journey, world, journal and verdict exact`, async () => {
    const walked = await Promise.all(runs.map((run) => oneRun(nginx, run)));
    runs.forEach((run, i) => done.set(run, walked[i]));
  });
  const owner = new Map();
  await check('each run lives on exactly one instance, MCP and admin alike', async () => {
    for (const run of runs) {
      const held = await owners(instances, run);
      assert(held.length === 1, `${run} is on instances ${show(held)}`);
      assert(held[0] === placed.get(run), `${run} moved from instance ${placed.get(run)} to ${held[0]}`);
      owner.set(run, held[0]);
    }
    assert(new Set(owner.values()).size > 1, `every run on one instance: ${show([...owner])}`);
  });
  await check('without the token, or with a wrong one, the admin face changes nothing', async () => {
    const run = runs[0];
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      const res = await fetch(`${nginx.admin}/runs/${run}/reset`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
      assert(res.status === 401, `POST /runs/${run}/reset answered ${res.status}`);
    }
    const world = JSON.parse((await control(nginx.admin, run, ['world', '--json'])).stdout);
    assert(world.orders.some((o) => o.id === done.get(run).order), `${run} lost its order`);
  });
  await check('killing one instance loses only the runs it owned', async () => {
    const victim = owner.get(runs[0]);
    const gone = new Promise((r) => instances[victim].child.once('exit', r));
    instances[victim].child.kill('SIGKILL');
    await gone;
    for (const run of runs) {
      if (owner.get(run) === victim) {
        const failed = await control(nginx.admin, run, ['world', '--json'], { code: 2 });
        assert(/502/.test(failed.stderr), `${run} on the killed instance: ${failed.stderr}`);
      } else {
        const world = JSON.parse((await control(nginx.admin, run, ['world', '--json'])).stdout);
        assert(world.orders.some((o) => o.id === done.get(run).order), `${run} lost its order`);
        const agent = await connect(nginx.mcp, run);
        await agent.call('ride_get_status', { rideId: done.get(run).ride });
        await agent.close();
      }
    }
  });
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
  .catch((e) => report(false, 'runs-cluster.mjs ran to the end', e instanceof Error ? e.stack : String(e)))
  .finally(finish);
