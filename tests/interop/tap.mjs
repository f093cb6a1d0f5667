// The checks' report, shared by the interop scripts: `ok - NAME`, or `not ok - NAME` with its
// detail indented under it, and `N passed, M failed` at the end, as CI's log shows them.

export class Tap {
  passed = 0;
  failed = 0;

  /** `describe` turns what a failed check threw into its detail. */
  constructor(describe = (e) => (e instanceof Error ? e.message : String(e))) {
    this.describe = describe;
  }

  report = (ok, name, detail) => {
    if (ok) this.passed++;
    else this.failed++;
    console.log(`${ok ? 'ok' : 'not ok'} - ${name}`);
    if (!ok && detail) for (const line of String(detail).split('\n')) console.log(`#   ${line}`);
  };

  /** Runs `fn` as one check: it fails when `fn` throws. Resolves with whether it passed. */
  check = async (name, fn) => {
    try {
      await fn();
      this.report(true, name);
      return true;
    } catch (e) {
      this.report(false, name, this.describe(e));
      return false;
    }
  };

  /** Prints the tally and exits, with 1 when a check failed. */
  finish = () => {
    console.log(`${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed > 0 ? 1 : 0);
  };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

export const show = (v) => JSON.stringify(v);

/** `promise`, or a rejection naming `what` after `ms` milliseconds. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
