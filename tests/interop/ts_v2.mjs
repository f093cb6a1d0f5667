#!/usr/bin/env node
// Interoperability check: careem-mcp driven by the TypeScript SDK v2 client
// (`@modelcontextprotocol/client`) in auto mode (`versionNegotiation: { mode: 'auto' }`), which
// opens every connection with `server/discover` and falls back to `initialize` unless the
// answer offers a revision from 2026-07-28 on.
//
//   node tests/interop/ts_v2.mjs <path/to/careem-mcp> <repo root>
//
// It starts `serve --port 0 --no-journal` under each profile in turn and connects over
// Streamable HTTP (`/mcp`) and legacy SSE (`/sse`):
//
// - `--wire go-sdk-1.7.0`: over Streamable HTTP discover is answered 200 without 2026-07-28 (a
//   stateful v1.7.0 server cannot serve it, as recorded), so the client falls back to
//   `initialize` at 2025-11-25; over SSE discover offers 2026-07-28 and the client adopts it,
//   sending no `initialize` and naming the revision in every request's `_meta`. Both list the
//   tools of tools/ and answer a menu call whose structuredContent the SDK validates against
//   the tool's outputSchema.
// - `--wire go-sdk-1.7.0-stateless`: discover offers 2026-07-28 over both, and the client
//   adopts it over both.
// - `--wire go-sdk-1.6.1` (production as last recorded): over Streamable HTTP discover is
//   refused with a 400 and the client falls back to `initialize`; over SSE the refusal ends the
//   connection (ERA_NEGOTIATION_FAILED), as it does against a Go SDK v1.6.1 server
//   (docs/MCP_SERVER.md, "Clients that fail against v1.6.1").
//
// Prints `ok - <check>` / `not ok - <check>` per check, then `N passed, M failed`; exits 1 when
// anything failed.

import { deepStrictEqual } from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';

import {
  Client,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { startServing } from './serving.mjs';
import { Tap, assert, show, withTimeout } from './tap.mjs';

const STARTUP_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const OVERALL_TIMEOUT_MS = 120_000;

const EXPECTED_SERVER_INFO = { name: 'careem-mcp-service', version: 'v1.0.0' };
const MODERN = '2026-07-28';
const LATEST_LEGACY = '2025-11-25';
const MENU_ARGS = { restaurant_id: 30101, latitude: 25.0866, longitude: 55.1474 };
const DISCOVER_REFUSED_161 = 'JSON RPC not handled: "server/discover" unsupported';

const [binArg, rootArg, ...extra] = process.argv.slice(2);
if (!binArg || !rootArg || extra.length > 0) {
  console.error('usage: node ts_v2.mjs <path/to/careem-mcp> <repo root>');
  process.exit(2);
}
const bin = path.resolve(binArg);
const toolsDir = path.join(path.resolve(rootArg), 'tools');

/** The names of the tools in tools/: every .md file but the READMEs holds one. */
function toolNames(dir) {
  const names = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md') || entry.name === 'README.md') continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    const block = text.match(/^```json tool[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/m);
    if (!block) throw new Error(`${entry.name}: no json tool block`);
    names.push(JSON.parse(block[1]).name);
  }
  return names.sort();
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-ts-v2-'));
const overridesPath = path.join(tmp, 'overrides.json');
fs.writeFileSync(overridesPath, '{}\n');
const serverEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAREEM_MCP_')));

// ---------------------------------------------------------------------------------------------
// Reporting

const describe = (e) => (e instanceof Error ? `${e.constructor.name}${e.code ? ` ${e.code}` : ''}: ${e.message}` : util.inspect(e));
const tap = new Tap(describe);
const { report, check } = tap;

// ---------------------------------------------------------------------------------------------
// The server

const children = new Set();

/** Starts `serve --wire <profile>` and resolves with its base URL once it announces itself. */
function startServer(profile) {
  const args = ['--tools', toolsDir, '--overrides', overridesPath, 'serve', '--port', '0', '--no-journal', '--wire', profile];
  return startServing(bin, args, { env: serverEnv, children, timeoutMs: STARTUP_TIMEOUT_MS });
}

/**
 * A fetch that notes each POST as it is sent: its JSON-RPC method, the protocol version its
 * `_meta` names, and `answered`, which resolves to the status of its answer and, for
 * `server/discover` answered with a body, that body's result. Over SSE a request's result can
 * come on the stream before its POST's 202, so a check awaits `answered`.
 */
function observingFetch(posts) {
  return (url, init) => {
    const response = fetch(url, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return response;
    const body = JSON.parse(init.body);
    const answered = response.then(async (res) => {
      if (body.method !== 'server/discover' || res.status !== 200) return { status: res.status };
      const text = await res.clone().text();
      const data = text.match(/^data: (.*)$/m)?.[1] ?? text;
      return { status: res.status, result: JSON.parse(data).result };
    });
    answered.catch(() => {});
    posts.push({ method: body.method, version: body.params?._meta?.[PROTOCOL_VERSION_META_KEY], answered });
    return response;
  };
}

// ---------------------------------------------------------------------------------------------
// One connection

const TRANSPORTS = {
  'streamable-http': (base, fetch_) => new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: fetch_ }),
  sse: (base, fetch_) => new SSEClientTransport(new URL(`${base}/sse`), { fetch: fetch_ }),
};
const newClient = () =>
  new Client({ name: 'careem-mcp-interop', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });

/** Connects in auto mode, expecting `era` at `version`, and checks the tools and a call. */
async function runConnected(label, base, transportName, { era, version, discover }) {
  const t = (what) => `${label} ${transportName} ${what}`;
  const posts = [];
  const client = newClient();
  const errors = [];
  client.onerror = (e) => errors.push(describe(e));
  const connected = await withTimeout(
    client.connect(TRANSPORTS[transportName](base, observingFetch(posts)), { timeout: REQUEST_TIMEOUT_MS }),
    REQUEST_TIMEOUT_MS,
    'connect',
  ).then(
    () => true,
    (e) => report(false, t('connects in auto mode'), describe(e)),
  );
  if (!connected) return;
  report(true, t('connects in auto mode'));

  await check(t(`opens with server/discover ${discover}`), async () => {
    assert(posts[0]?.method === 'server/discover', `first POST is ${show(posts[0])}`);
    const probe = await withTimeout(posts[0].answered, REQUEST_TIMEOUT_MS, 'the discover POST');
    // Over SSE the POST is accepted and the result comes on the stream.
    const accepted = transportName === 'sse' ? 202 : 200;
    if (discover === 'refused') {
      assert(probe.status === 400, `discover answered ${probe.status}, want 400`);
    } else if (discover === 'answered') {
      assert(probe.status === accepted, `discover answered ${probe.status}, want ${accepted}`);
      const offered = probe.result?.supportedVersions;
      assert(Array.isArray(offered) && offered.length > 0, `no supportedVersions in ${show(probe.result)}`);
      assert(!offered.some((v) => v >= MODERN), `a stateful server offers ${show(offered)}, which it cannot serve`);
    } else {
      assert(probe.status === accepted, `discover answered ${probe.status}, want ${accepted}`);
      const offered = client.getDiscoverResult()?.supportedVersions;
      assert(offered?.[0] === MODERN, `supportedVersions ${show(offered)}, want ${MODERN} first`);
    }
  });
  await check(t(`adopts the ${era} era at ${version}`), async () => {
    deepStrictEqual({ era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion() }, { era, version });
    const initializes = posts.filter((p) => p.method === 'initialize').length;
    deepStrictEqual(initializes, era === 'legacy' ? 1 : 0, 'initialize requests sent');
  });
  await check(t('getServerVersion() is exactly {name: "careem-mcp-service", version: "v1.0.0"}'), async () => {
    deepStrictEqual(client.getServerVersion(), EXPECTED_SERVER_INFO);
  });
  await check(t(`listTools() has the ${toolNames(toolsDir).length} tools of tools/`), async () => {
    const { tools } = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    deepStrictEqual(tools.map((x) => x.name).sort(), toolNames(toolsDir));
  });
  await check(t('food_get_restaurant_menu 30101 → Shawarma Station, structuredContent as its text'), async () => {
    const result = await client.callTool({ name: 'food_get_restaurant_menu', arguments: MENU_ARGS }, { timeout: REQUEST_TIMEOUT_MS });
    assert(!result.isError, `isError: ${result.content?.[0]?.text}`);
    const s = result.structuredContent;
    assert(s?.restaurant?.name?.value === 'Shawarma Station', `restaurant.name.value ${show(s?.restaurant?.name?.value)}`);
    deepStrictEqual(JSON.parse(result.content[0].text), s, 'text is not the JSON of structuredContent');
  });
  await check(t(`every request after the handshake names ${era === 'modern' ? version : 'no revision'} in _meta`), async () => {
    const later = posts.filter((p) => !['server/discover', 'initialize'].includes(p.method));
    const want = era === 'modern' ? version : undefined;
    const other = later.filter((p) => p.version !== want);
    assert(later.length > 0, 'no requests seen');
    assert(other.length === 0, `requests naming another revision: ${show(other)}`);
  });
  await check(t('close() once every POST is answered'), async () => {
    await withTimeout(Promise.allSettled(posts.map((p) => p.answered)), REQUEST_TIMEOUT_MS, 'the POSTs');
    await withTimeout(client.close(), REQUEST_TIMEOUT_MS, 'close');
  });
  report(errors.length === 0, t('no SDK errors'), errors.join('\n'));
}

/** Connects in auto mode where the server refuses `server/discover` and the client gives up. */
async function runRefused(label, base, transportName) {
  const posts = [];
  const client = newClient();
  client.onerror = () => {};
  await check(`${label} ${transportName} connect fails with ERA_NEGOTIATION_FAILED (discover refused, no fallback)`, async () => {
    let error;
    try {
      await withTimeout(client.connect(TRANSPORTS[transportName](base, observingFetch(posts)), { timeout: REQUEST_TIMEOUT_MS }), REQUEST_TIMEOUT_MS, 'connect');
    } catch (e) {
      error = e;
    }
    assert(error, `connected (era ${client.getProtocolEra()}, ${client.getNegotiatedProtocolVersion()}): the refusal was not seen`);
    assert(error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed, describe(error));
    assert(error.message.includes(DISCOVER_REFUSED_161), `message ${show(error.message)}`);
    const answers = await Promise.all(posts.map(async (p) => [p.method, (await p.answered).status]));
    deepStrictEqual(answers, [['server/discover', 400]]);
  });
  await client.close().catch(() => {});
}

// ---------------------------------------------------------------------------------------------

async function runProfile(profile, steps) {
  let server;
  await check(`${profile} serve starts`, async () => {
    server = await startServer(profile);
  });
  if (!server) return;
  for (const step of steps) await step(server.base);
  server.child.removeAllListeners('exit');
  server.child.kill('SIGTERM');
}

async function main() {
  await runProfile('go-sdk-1.7.0', [
    (base) => runConnected('go-sdk-1.7.0', base, 'streamable-http', { era: 'legacy', version: LATEST_LEGACY, discover: 'answered' }),
    (base) => runConnected('go-sdk-1.7.0', base, 'sse', { era: 'modern', version: MODERN, discover: `offering ${MODERN}` }),
  ]);
  await runProfile('go-sdk-1.7.0-stateless', [
    (base) => runConnected('go-sdk-1.7.0-stateless', base, 'streamable-http', { era: 'modern', version: MODERN, discover: `offering ${MODERN}` }),
    (base) => runConnected('go-sdk-1.7.0-stateless', base, 'sse', { era: 'modern', version: MODERN, discover: `offering ${MODERN}` }),
  ]);
  await runProfile('go-sdk-1.6.1', [
    (base) => runConnected('go-sdk-1.6.1', base, 'streamable-http', { era: 'legacy', version: LATEST_LEGACY, discover: 'refused' }),
    (base) => runRefused('go-sdk-1.6.1', base, 'sse'),
  ]);
}

const watchdog = setTimeout(() => {
  report(false, `finished within ${OVERALL_TIMEOUT_MS / 1000} s`, 'timed out');
  finish();
}, OVERALL_TIMEOUT_MS);

function finish() {
  clearTimeout(watchdog);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
  tap.finish();
}

main()
  .catch((e) => report(false, 'ts_v2.mjs ran to the end', describe(e)))
  .finally(finish);
