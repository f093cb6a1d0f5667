#!/usr/bin/env node
// Interoperability check: careem-mcp driven by the Vercel AI SDK's MCP client (`@ai-sdk/mcp`'s
// `createMCPClient`, with its default options: it opens with a 2026-07-28 `server/discover` and
// falls back to `initialize` on the answer production gives) over Streamable HTTP and stdio.
//
//   node tests/interop/ai-sdk.mjs <path/to/careem-mcp> <repo root>     (Node 22 or newer)
//
// It starts the server itself (`serve --port 0 --no-journal` on 127.0.0.1, and `serve --stdio`
// as the client's child process), with a private overrides file, and checks what an agent
// built on the AI SDK sees: the connection, the server identity, the tool list against the
// tool files in tools/, the tool set the SDK hands a model, and a call of `reverse_geocode`
// at Dubai Marina, made directly and through that tool set.
//
// Prints `ok - <transport> <check>` / `not ok - <transport> <check>` per check, then
// `N passed, M failed`; exits 1 when anything failed.

import { deepStrictEqual } from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';

import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { startServing } from './serving.mjs';
import { Tap, assert, withTimeout } from './tap.mjs';

const STARTUP_TIMEOUT_MS = 30_000;
const STEP_TIMEOUT_MS = 15_000;
const OVERALL_TIMEOUT_MS = 120_000;
const EXPECTED_SERVER_INFO = { name: 'careem-mcp-service', version: 'v1.0.0' };
const DUBAI_MARINA = { latitude: 25.0866, longitude: 55.1474 };

const [binArg, rootArg] = process.argv.slice(2);
if (!binArg || !rootArg) {
  console.error('usage: node ai-sdk.mjs <path/to/careem-mcp> <repo root>');
  process.exit(2);
}
const bin = path.resolve(binArg);
const toolsDir = path.join(path.resolve(rootArg), 'tools');

const tap = new Tap((e) => (e instanceof Error ? `${e.name}: ${e.message}` : util.inspect(e, { depth: 6 })));
const { report } = tap;
/** One check, failed when it takes longer than STEP_TIMEOUT_MS. */
const check = (name, fn) => tap.check(name, () => withTimeout(fn(), STEP_TIMEOUT_MS, name));

const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  report(false, `setup: Node ${process.versions.node}; @ai-sdk/mcp needs Node 22 or newer`);
  tap.finish();
}

/** The tool names of the files under tools/ (README.md files are not tools). */
function toolNames(dir) {
  const names = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.md') && entry.name !== 'README.md') {
      names.push(entry.name.slice(0, -'.md'.length));
    }
  }
  return names.sort();
}
const expectedTools = toolNames(toolsDir);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'careem-mcp-ai-sdk-'));
const overridesPath = path.join(tmp, 'overrides.json');
fs.writeFileSync(overridesPath, '{}\n');
const serverEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAREEM_MCP_')));
const serverArgs = ['--tools', toolsDir, '--overrides', overridesPath, 'serve', '--no-journal'];

const children = new Set();
async function startHttpServer() {
  const { base } = await startServing(bin, [...serverArgs, '--port', '0'], { env: serverEnv, children, timeoutMs: STARTUP_TIMEOUT_MS });
  return `${base}/mcp`;
}

/** The result of a `reverse_geocode` call at Dubai Marina, as the tool files answer it. */
function assertMarina(result) {
  assert(!result.isError, `isError: ${JSON.stringify(result)}`);
  assert(result.content?.[0]?.type === 'text', `content: ${JSON.stringify(result.content)}`);
  assert(result.structuredContent?.location?.locationUuid === 'LOC-50001', `structuredContent: ${JSON.stringify(result.structuredContent)}`);
  deepStrictEqual(JSON.parse(result.content[0].text), result.structuredContent, 'the text is the JSON of structuredContent');
}

async function runTransport(label, transport) {
  const t = (name) => `${label} ${name}`;
  let client;
  const connected = await check(t('createMCPClient with default options connects'), async () => {
    client = await createMCPClient({ transport });
  });
  if (!connected) {
    report(false, t('remaining checks skipped'), 'no connection');
    return;
  }
  try {
    await check(t('serverInfo is {name: "careem-mcp-service", version: "v1.0.0"}'), async () => {
      deepStrictEqual({ name: client.serverInfo.name, version: client.serverInfo.version }, EXPECTED_SERVER_INFO);
    });
    await check(t(`listTools() names the ${expectedTools.length} tool files`), async () => {
      const { tools } = await client.listTools();
      deepStrictEqual(tools.map((tool) => tool.name).sort(), expectedTools);
    });
    let toolSet;
    await check(t('tools() gives a model every tool'), async () => {
      toolSet = await client.tools();
      deepStrictEqual(Object.keys(toolSet).sort(), expectedTools);
    });
    await check(t('callTool reverse_geocode at Dubai Marina → LOC-50001'), async () => {
      assertMarina(await client.callTool({ name: 'reverse_geocode', arguments: DUBAI_MARINA }));
    });
    await check(t("the tool set's reverse_geocode, as a model calls it → LOC-50001"), async () => {
      assert(toolSet, 'no tool set');
      assertMarina(await toolSet.reverse_geocode.execute(DUBAI_MARINA, { toolCallId: 'call-1', messages: [] }));
    });
  } finally {
    await check(t('close()'), () => client.close());
  }
}

const overall = setTimeout(() => {
  report(false, `overall: not finished within ${OVERALL_TIMEOUT_MS} ms`);
  for (const child of children) child.kill('SIGKILL');
  tap.finish();
}, OVERALL_TIMEOUT_MS);

try {
  let url;
  if (await check('http server starts', async () => (url = await startHttpServer()))) {
    await runTransport('http', { type: 'http', url });
  }
  await runTransport('stdio', new StdioMCPTransport({ command: bin, args: [...serverArgs, '--stdio'], env: serverEnv, stderr: 'ignore' }));
} finally {
  clearTimeout(overall);
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
}
tap.finish();
