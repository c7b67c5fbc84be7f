// @ts-check
// The job list page: the same query as the JSON list (namespace, phase, label_selector, limit,
// continue), shown as a table. It follows the namespace's changes on GET /jobs?watch=true (Server-Sent
// Events, read with fetch so that a token is sent too); where that stream breaks it asks again every
// few seconds while any listed job is still going.
import { FINISHED_PHASES, badge, el, formatTime, getJson, labelled, laterWhenVisible, showNotice } from './common.js';
import { ActionButtons, allowedActions } from './actions.js';
import { percent } from './progress.js';
import { humanBytes } from './format.js';
import { openEventStream } from './events.js';

const REFRESH_INTERVAL_MS = 2000;
/** An element of the page by its id, as whatever element the page's HTML makes it. @param {string} id @returns {any} */
const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(window.location.search);
// The filter form sends phase= for "Any"; the API reads an empty phase as a mistake.
const listUrl = new URL(window.location.href);
for (const [name, value] of query) {
  if (value === '') listUrl.searchParams.delete(name);
}

// One set of buttons per job, kept across refreshes; a refresh waits while a question is open.
const buttons = new Map();
let allowed;
let generation = 0;
let watching = false;

async function refresh() {
  const mine = ++generation; // an action's refresh replaces the timer's
  if ([...buttons.values()].some((b) => b.busy)) {
    laterWhenVisible(REFRESH_INTERVAL_MS, () => mine === generation && refresh());
    return;
  }
  let list;
  try {
    // This page's own URL, asked for JSON, is the list.
    list = await getJson(listUrl);
  } catch (failure) {
    showNotice($('notice'), `${failure.title || 'Unavailable'}: ${failure.message}`);
    return;
  }
  $('notice').hidden = true;
  $('namespace').textContent = list.items[0]?.namespace || query.get('namespace') || '(the default)';
  $('empty').hidden = list.items.length > 0;
  $('jobs').hidden = list.items.length === 0;
  if (list.items.length > 0 && allowed === undefined) {
    allowed = await allowedActions(jobUrl(list.items[0]));
  }
  $('jobs').tBodies[0].replaceChildren(...list.items.map(row));
  showNextPage(list.continue);
  showCapacity();
  if (!watching && list.items.some((job) => !FINISHED_PHASES.has(job.phase))) {
    laterWhenVisible(REFRESH_INTERVAL_MS, () => mine === generation && refresh());
  }
}

// What the machine has and who holds it: only the local backend has an answer (elsewhere a 404, and no section).
async function showCapacity() {
  const url = new URL('capacity', window.location.href);
  if (query.get('namespace')) url.searchParams.set('namespace', query.get('namespace'));
  let capacity;
  try {
    capacity = await getJson(url);
  } catch (failure) {
    $('capacity').hidden = true;
    return;
  }
  const amounts = (a) => `${a.gpus} GPUs, ${humanBytes(a.memory)} memory, ${a.cpus} CPUs`;
  $('capacity-summary').textContent =
    `Free: ${amounts(capacity.free)} · in use: ${amounts(capacity.in_use)} · in all: ${amounts(capacity.total)}`;
  $('gpus').hidden = capacity.gpus.length === 0;
  $('gpus').tBodies[0].replaceChildren(...capacity.gpus.map((gpu) => el('tr', {},
    el('th', { text: gpu.index, attrs: { scope: 'row' } }),
    labelled('Name', gpu.name),
    labelled('Held by', !gpu.held ? 'free' : gpu.job ? `${gpu.job.name} (${gpu.replica})` : 'a job of another namespace'))));
  $('capacity-notes').replaceChildren(...capacity.notes.map((note) => el('li', { text: note })));
  $('capacity').hidden = false;
}

function jobUrl(job) {
  const url = new URL(`jobs/${encodeURIComponent(job.name)}`, document.baseURI);
  url.searchParams.set('namespace', job.namespace);
  return url;
}

function actionsOf(job) {
  if (!buttons.has(job.name)) {
    buttons.set(job.name, new ActionButtons(job.name, jobUrl(job), () => refresh()));
  }
  const actions = buttons.get(job.name);
  actions.update(allowed || { cancel: false, delete: false }, FINISHED_PHASES.has(job.phase));
  return actions.element;
}

function row(job) {
  const statusPage = new URL(`jobs/${encodeURIComponent(job.name)}/status`, document.baseURI);
  statusPage.searchParams.set('namespace', job.namespace);
  return el('tr', { attrs: { 'data-job': job.name } },
    el('th', { attrs: { scope: 'row' } }, el('a', { text: job.name, attrs: { href: statusPage } })),
    labelled('Phase', null, badge(job.phase, 'phase')),
    labelled('Reason', job.reason || ''),
    labelled('Pservers', job.pservers),
    labelled('Trainers', job.trainers),
    labelled('Progress', progressOf(job.progress)),
    labelled('Submitted', null, time(job.created_at)),
    labelled('Finished', null, time(job.finished_at)),
    el('td', { className: 'row-actions' }, actionsOf(job)));
}

/** "12% (step 120 of 1000)", "step 40" without a total, "—" before any trainer reported. */
function progressOf(progress) {
  if (!progress) return '—';
  return progress.total_steps
    ? `${percent(progress.fraction)} (step ${progress.step} of ${progress.total_steps})`
    : `step ${progress.step}`;
}

function time(iso) {
  return iso ? el('time', { text: formatTime(iso), attrs: { datetime: iso } }) : document.createTextNode('—');
}

function showNextPage(token) {
  const link = $('next-page');
  link.hidden = !token;
  if (token) {
    const next = new URLSearchParams(listUrl.search);
    next.set('continue', token);
    link.href = `?${next}`;
  }
}

function keepFilterInputs() {
  $('filter-phase').value = query.get('phase') || '';
  if (query.has('namespace')) {
    $('filter-namespace').value = query.get('namespace');
    $('filter-namespace').disabled = false;
  }
}

/**
 * A change of a listed job replaces its row; a new job, or one that went, changes which jobs the
 * page holds, which the list itself says. Opening (and reopening) the stream asks for the list
 * once, for what changed before it was open.
 */
function watch() {
  const watchUrl = new URL(listUrl);
  watchUrl.searchParams.delete('continue');
  watchUrl.searchParams.delete('limit');
  watchUrl.searchParams.set('watch', 'true');
  const events = openEventStream(watchUrl, {
    open: () => refresh(),
    job: (event) => onChange(JSON.parse(event.data)),
    deleted: (event) => onChange(null, JSON.parse(event.data).name),
    error: () => {
      events.close();
      watching = false;
      refresh(); // and poll from here on
    },
  });
  watching = true;
  return true;
}

function onChange(job, name = job.name) {
  const shown = [...$('jobs').tBodies[0].rows].find((tr) => tr.dataset.job === name);
  if (job && shown && !buttons.get(name)?.busy) {
    shown.replaceWith(row(job));
  } else if (job || shown) {
    refreshSoon();
  }
}

// Many changes at once (a burst of submits) make one request for the list, not one each.
let pendingRefresh = null;
function refreshSoon() {
  if (pendingRefresh !== null) return;
  pendingRefresh = setTimeout(() => {
    pendingRefresh = null;
    refresh();
  }, 200);
}

keepFilterInputs();
if (!watch()) refresh();
