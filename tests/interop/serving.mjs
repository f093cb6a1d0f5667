// Starting `careem-mcp serve` for a check: the interop scripts share it.

import { spawn } from 'node:child_process';

/**
 * Spawns `bin ARGS` (a `serve` on port 0), adds it to `children`, and resolves with
 * `{ base, child }` once its stderr announces where it serves (`careem-mcp: serving N tools at
 * http://127.0.0.1:PORT/mcp …`); rejects when it exits first, or after `timeoutMs` with what it
 * printed.
 */
export function startServing(bin, args, { env, children, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    children.add(child);
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no "serving" line within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = stderr.match(/careem-mcp: serving \d+ tools at (http:\/\/127\.0\.0\.1:\d+)\/mcp /);
      if (m) {
        clearTimeout(timer);
        resolve({ base: m[1], child });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (code ${code}, signal ${signal}):\n${stderr}`));
    });
  });
}
