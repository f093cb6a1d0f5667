// The dashboard's JSON API. Writes always declare a JSON body: the server refuses writes that
// do not, which is what keeps other sites' pages from changing anything.

/** The run the page shows: `?run=NAME` in its address; empty for the default run. */
export const run = new URLSearchParams(location.search).get('run') ?? '';

/** Paths that are the project's, not one run's. */
const PROJECT_PATHS = new Set(['/tools', '/runs']);

/**
 * The API's URL for `path`: the admin API's (docs/ADMIN.md) under `/api`, in the page's run
 * (`/api/runs/<run>/…`, `default` for the default run), but for the project's own paths.
 */
export function apiUrl(path) {
  if (PROJECT_PATHS.has(path)) return `/api${path}`;
  return `/api/runs/${encodeURIComponent(run || 'default')}${path}`;
}

async function request(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (method !== 'GET') {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(apiUrl(path), init);
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    const error = new Error(data?.error ?? `${response.status} ${response.statusText}`);
    throw error;
  }
  return data;
}

export const api = {
  get: (path) => request('GET', path),
  put: (path, body) => request('PUT', path, body),
  post: (path, body) => request('POST', path, body),
  delete: (path, body) => request('DELETE', path, body),
};
