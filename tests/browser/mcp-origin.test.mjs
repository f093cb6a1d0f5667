// `serve`'s /mcp beside a page of another origin, in a real headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core). The server accepts any Origin, as production's
// Go SDK does; what stops a cross-site page is the browser: a POST of application/json, or one
// naming Mcp-Session-Id, needs a CORS preflight that the server never grants, and a "simple"
// text/plain POST is refused and its answer cannot be read. The page tries each, and:
//
//   - it reads no answer, and learns no session id;
//   - no tool is called (the journal gets no call line) and the overrides file is untouched;
//   - the server grants no preflight and sends no Access-Control-Allow-Origin;
//   - the same calls made by a client that is not a page do call the tool (so the journal
//     shows a call when there is one).
//
//   cd tests/browser && npm ci && node --test
//
// CAREEM_MCP_BIN names the binary (default: target/debug/careem-mcp), CHROMIUM the browser
// (default: /usr/bin/chromium).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.resolve(process.env.CAREEM_MCP_BIN ?? path.join(root, 'target/debug/careem-mcp'));
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WAIT_MS = 15_000;
const ACCEPT = 'application/json, text/event-stream';
const VERSION = '2025-11-25';
const MARINA = { latitude: 25.0866, longitude: 55.1474 };
const OVERRIDES = '{}\n';

let project;
let server;
let mcpUrl;
let browser;
let journal;
let overrides;

const initialize = (id) => ({
  jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});
const callMarina = (id) => ({
  jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'reverse_geocode', arguments: MARINA },
});

before(async () => {
  assert.ok(fs.existsSync(bin), `no binary at ${bin} (cargo build first)`);
  assert.ok(fs.existsSync(browserPath), `no browser at ${browserPath} (apt-get install chromium)`);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-origin-'));
  fs.cpSync(path.join(root, 'tools'), path.join(project, 'tools'), { recursive: true });
  fs.mkdirSync(path.join(project, '.run'));
  journal = path.join(project, '.run/calls.jsonl');
  overrides = path.join(project, '.run/overrides.json');
  fs.writeFileSync(overrides, OVERRIDES);
  server = spawn(bin, ['serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  mcpUrl = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "serving" line: ${seen}`)), 60_000);
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      seen += chunk;
      const line = seen.split('\n').slice(0, -1).find((l) => l.startsWith('careem-mcp: serving '));
      if (line) {
        clearTimeout(timer);
        resolve(line.match(/http:\/\/\S+\/mcp/)[0]);
      }
    });
    server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${seen}`)));
  });
  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close().catch(() => {});
  server?.kill();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** The call lines of the journal so far. */
function journalCalls() {
  if (!fs.existsSync(journal)) return [];
  return fs.readFileSync(journal, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

/** The page of the other origin: every attempt, each reported as what the page could learn. */
function attackerPage(target) {
  const attempts = {
    'initialize, application/json': { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: initialize(1) },
    'tools/call, application/json, on a session': {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': 'AAAAAAAAAAAAAAAAAAAAAAAAAA', 'mcp-protocol-version': VERSION },
      body: callMarina(2),
    },
    'initialize, text/plain': { method: 'POST', headers: { 'content-type': 'text/plain' }, body: initialize(3) },
    'tools/call, text/plain': { method: 'POST', headers: { 'content-type': 'text/plain' }, body: callMarina(4) },
    'initialize, text/plain, no-cors': { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: initialize(5) },
    'tools/call, text/plain, no-cors': { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: callMarina(6) },
  };
  return `<!doctype html><title>attacker</title>
<form id="form" method="post" action="${target}" enctype="text/plain" target="sink"><input name='{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"reverse_geocode","arguments":{"latitude":25.0866,"longitude":55.1474}},"x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
const attempts = ${JSON.stringify(attempts)};
async function attempt(init) {
  try {
    const response = await fetch(${JSON.stringify(target)}, { ...init, body: JSON.stringify(init.body) });
    if (response.type === 'opaque') return 'opaque';
    return 'read ' + response.status + ' ' + (response.headers.get('mcp-session-id') ?? '') + ' ' + (await response.text());
  } catch (e) {
    return 'blocked';
  }
}
(async () => {
  const results = {};
  for (const [name, init] of Object.entries(attempts)) results[name] = await attempt(init);
  await new Promise((resolve) => {
    document.querySelector('iframe').addEventListener('load', resolve, { once: true });
    document.getElementById('form').submit();
  });
  window.results = results;
  document.title = 'done';
})();
</script>`;
}

test('a page of another origin can neither call a tool and read the answer nor change anything', async () => {
  const page = new http.Server((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(attackerPage(mcpUrl));
  });
  await new Promise((resolve) => page.listen(0, '127.0.0.1', resolve));
  let results;
  try {
    const tab = await browser.newPage();
    tab.setDefaultTimeout(WAIT_MS);
    await tab.goto(`http://127.0.0.1:${page.address().port}/`);
    await tab.waitForFunction(() => document.title === 'done');
    results = await tab.evaluate(() => window.results);
    await tab.close();
  } finally {
    page.close();
  }
  for (const [name, result] of Object.entries(results)) {
    assert.ok(result === 'blocked' || result === 'opaque', `the page read the answer to "${name}": ${result}`);
  }
  assert.deepEqual(journalCalls(), [], 'no tool was called');
  assert.equal(fs.readFileSync(overrides, 'utf8'), OVERRIDES, 'the overrides file is untouched');
});

test('the server grants no CORS preflight and allows no origin', async () => {
  const origin = 'http://127.0.0.1:1';
  const preflight = await fetch(mcpUrl, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' },
  });
  assert.equal(preflight.headers.get('access-control-allow-origin'), null, 'no Access-Control-Allow-Origin on the preflight');
  assert.equal(preflight.headers.get('access-control-allow-headers'), null, 'no Access-Control-Allow-Headers on the preflight');
  const answer = await fetch(mcpUrl, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(initialize(1)),
  });
  await answer.arrayBuffer();
  assert.equal(answer.headers.get('access-control-allow-origin'), null, 'no Access-Control-Allow-Origin on an answer');
});

test('the same call made by a client that is not a page is journalled', async () => {
  const before = journalCalls().length;
  const opened = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(initialize(1)),
  });
  assert.equal(opened.status, 200, await opened.text());
  const session = opened.headers.get('mcp-session-id');
  const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': VERSION };
  const initialized = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(initialized.status, 202);
  const called = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(callMarina(2)) });
  assert.match(await called.text(), /LOC-50001/);
  // The journal line is written before the answer.
  const calls = journalCalls();
  assert.equal(calls.length, before + 1, 'one call line');
  assert.equal(calls.at(-1).tool, 'reverse_geocode');
});
