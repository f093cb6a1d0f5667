// The dashboard's JSON API. Writes always declare a JSON body: the server refuses writes that
// do not, which is what keeps other sites' pages from changing anything.

async function request(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (method !== 'GET') {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(`/api${path}`, init);
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    const error = new Error(data?.error ?? `${response.status} ${response.statusText}`);
    error.known = data?.known;
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
