// @ts-check
// Shared by the pages. Everything that comes from the API (names, labels, messages, log text)
// is written with textContent or attributes, never parsed as HTML.

export const FINISHED_PHASES = new Set(['Succeeded', 'Failed', 'Cancelled']);

/** A failed request, carrying the problem document's words when the service sent one. */
export class RequestFailed extends Error {
  constructor(status, title, detail) {
    super(detail || title);
    this.status = status;
    this.title = title;
  }
}

/** GETs a JSON document; anything but 2xx becomes a RequestFailed. */
export async function getJson(url) {
  const response = await get(url, 'application/json');
  return response.json();
}

export async function getText(url) {
  const response = await get(url, 'text/plain');
  return response.text();
}

async function get(url, accept) {
  // The page and its JSON share a URL, so the Accept header is what picks the JSON.
  const response = await fetch(url, { headers: withToken({ Accept: accept }), cache: 'no-store' });
  if (response.status === 401) {
    askForToken();
  }
  if (!response.ok) {
    throw await failureOf(response);
  }
  return response;
}

/** Reads a text response as it arrives (a followed log), passing each piece on; ends with the response or the signal. */
export async function stream(url, onText, signal) {
  const response = await fetch(url, { headers: withToken({ Accept: 'text/plain' }), cache: 'no-store', signal });
  if (!response.ok) {
    throw await failureOf(response);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onText(value);
  }
}

/**
 * Sends a POST or DELETE (cancel, delete, run again) from the page, with `body` as JSON when given:
 * same-origin, so the browser's Origin header passes the service's cross-site check; anything but
 * 2xx becomes a RequestFailed.
 */
export async function send(method, url, body) {
  const headers = withToken(body === undefined ? { Accept: 'application/json' }
    : { Accept: 'application/json', 'Content-Type': 'application/json' });
  const response = await fetch(url, {
    method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    askForToken();
  }
  if (!response.ok) {
    throw await failureOf(response);
  }
  return response;
}

// Where the service wants bearer tokens (paddlejobs.security.mode=token), the person enters theirs
// once; it is kept for this tab only (sessionStorage) and sent with every request the page makes.
export const TOKEN_KEY = 'paddlejobs.token';

/** `headers` with the person's token, where they entered one. */
export function withToken(headers) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}

/** Shows the token form; a token that was already sent and refused is forgotten, and said so. */
function askForToken() {
  const form = document.getElementById('token-form');
  if (!form || !form.hidden) return;
  if (sessionStorage.getItem(TOKEN_KEY) !== null) {
    sessionStorage.removeItem(TOKEN_KEY);
    document.getElementById('token-why').textContent = 'That token was not accepted. Enter another one.';
  }
  form.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, /** @type {HTMLInputElement} */ (document.getElementById('token')).value.trim());
    window.location.reload();
  });
  document.getElementById('token').focus();
}

// A link into the API (a full log, the job's JSON) is opened by the browser without the token;
// with one, it is fetched with the token and shown from memory instead.
document.addEventListener('click', async (event) => {
  const target = /** @type {Element | null} */ (event.target);
  const link = /** @type {HTMLAnchorElement | null} */ (target?.closest?.('a[data-api]'));
  if (!link || !sessionStorage.getItem(TOKEN_KEY) || event.button !== 0 || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const response = await fetch(link.href, { headers: withToken({ Accept: 'application/json, text/plain' }) });
  const body = await response.blob();
  window.location.assign(URL.createObjectURL(body));
});

async function failureOf(response) {
  let title = `HTTP ${response.status}`;
  let detail = '';
  try {
    const problem = await response.json();
    title = problem.title || title;
    detail = problem.detail || '';
  } catch {
    // not a problem document: the status line is all there is
  }
  return new RequestFailed(response.status, title, detail);
}

/**
 * Creates an element; `text` is set as textContent, `attrs` as attributes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{className?: string, text?: unknown, attrs?: Record<string, string | URL>}} [options]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, { className, text, attrs } = {}, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  for (const [name, value] of Object.entries(attrs || {})) {
    element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}

/** A cell that names its column when a narrow screen stacks the table (see .stack in page.css). */
export function labelled(label, text, ...children) {
  return el('td', { text, attrs: { 'data-label': label } }, ...children);
}

/** A coloured badge with the phase or state as its word; colour is never the only signal. */
export function badge(word, kind = 'state') {
  return el('span', { className: `${kind} ${kind}-${String(word).toLowerCase()}`, text: word });
}

export function setPhase(element, phase) {
  if (element.textContent !== phase) { // re-announced by screen readers only when it changes
    element.textContent = phase;
    element.className = `phase phase-${phase.toLowerCase()}`;
  }
}

export function formatTime(iso) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—';
}

/** Sets a <time> element: a readable local time, with the exact instant in its datetime. */
export function setTime(element, iso) {
  element.textContent = formatTime(iso);
  if (iso) {
    element.dateTime = iso;
  } else {
    element.removeAttribute('datetime');
  }
}

/** 4 s, 3 min 05 s, 2 h 07 min. */
export function formatDuration(millis) {
  const seconds = Math.max(0, Math.floor(millis / 1000));
  const pad = (n) => String(n).padStart(2, '0');
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor((seconds % 3600) / 60))} min`;
}

/** A URL relative to this page, carrying the page's namespace. */
export function pageUrl(path, params = {}) {
  const url = new URL(path, window.location.href);
  const namespace = new URLSearchParams(window.location.search).get('namespace');
  if (namespace) url.searchParams.set('namespace', namespace);
  for (const [name, value] of Object.entries(params)) {
    url.searchParams.set(name, value);
  }
  return url;
}

/** Runs a task after a delay; in a background tab it waits until the page is looked at again. */
export function laterWhenVisible(millis, task) {
  setTimeout(() => {
    if (document.hidden) {
      document.addEventListener('visibilitychange', task, { once: true });
    } else {
      task();
    }
  }, millis);
}

export function showNotice(element, text) {
  element.textContent = text;
  element.hidden = false;
}
