// The API as the console uses it: the operator's session in sessionStorage (gone when the tab
// closes), the access token on every call, one refresh and a retry when it has expired.

const PREFIX = '/api/v1';
const KEY = 'console.session';

export function session() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
}

export function saveSession(value) {
  if (value) sessionStorage.setItem(KEY, JSON.stringify(value));
  else sessionStorage.removeItem(KEY);
}

let onSignedOut = () => {};
export function whenSignedOut(callback) {
  onSignedOut = callback;
}

/** One call; resolves to {status, ok, body} whatever the answer (a network failure is status 0). */
export async function api(method, path, body) {
  let answer = await send(method, path, body);
  if (answer.status === 401 && session()?.refresh_token && (await refresh())) answer = await send(method, path, body);
  if (answer.status === 401 && session()) {
    saveSession(null);
    onSignedOut('Your session ended; sign in again.');
  }
  return answer;
}

async function send(method, path, body, token = session()?.access_token) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(PREFIX + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { status: 0, ok: false, body: { message: 'The service cannot be reached.' } };
  }
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { message: text };
  }
  return { status: response.status, ok: response.ok, body: parsed };
}

let refreshing = null;
function refresh() {
  refreshing ??= (async () => {
    const current = session();
    const answer = await send('POST', '/auth/refresh-token', { refresh_token: current.refresh_token }, null);
    if (answer.ok) saveSession({ ...current, access_token: answer.body.access_token, refresh_token: answer.body.refresh_token });
    return answer.ok;
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** A file (a driver's document) as a blob: URL, fetched with the token; undefined with a message when refused. */
export async function fileUrl(path) {
  const get = () => fetch(PREFIX + path, { headers: { authorization: `Bearer ${session()?.access_token}` } });
  let response = await get().catch(() => null);
  if (response?.status === 401 && (await refresh())) response = await get().catch(() => null);
  if (!response) return { message: 'The service cannot be reached.' };
  if (!response.ok) return { message: `${response.status}: ${(await response.json().catch(() => ({}))).message ?? response.statusText}` };
  const blob = await response.blob();
  return { url: URL.createObjectURL(blob), type: blob.type };
}

/** What an error answer says, in one sentence; a route this server does not have is said so. */
export function problem(answer, what = 'This') {
  if (answer.status === 404 && isMissingRoute(answer)) return `${what} is not available on this server yet.`;
  const details = answer.body?.details?.map((d) => d.message).join('; ');
  const message = answer.body?.message ?? 'Unexpected answer';
  return answer.status ? `${message}${details ? ` (${details})` : ''} [${answer.status}]` : message;
}

/** Nest's answer for a path no controller serves ("Cannot GET /api/v1/…"), as opposed to "Ride not found". */
export function isMissingRoute(answer) {
  return answer.status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE) /.test(answer.body?.message ?? '');
}

export const items = (body) => (Array.isArray(body) ? body : (body?.items ?? []));
