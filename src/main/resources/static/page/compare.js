// @ts-check
// The compare page (/compare?sweep=name or ?jobs=a,b,c): one chart per metric with every run overlaid, by
// step or by time; a table of the runs; their requests field by field, those that differ marked; the
// table as CSV. Read again every few seconds while a run is unfinished.
import { FINISHED_PHASES, badge, el, getJson, laterWhenVisible, pageUrl, showNotice, withToken } from './common.js';
import { ChartView } from './charts.js';
import { jobNames, overlay, runsTable } from './compare-model.js';

const REFRESH_MS = 3000;
const $ = (id) => document.getElementById(id);
/** A table of the page, by id. @returns {HTMLTableElement} */
const table = (/** @type {string} */ id) => /** @type {HTMLTableElement} */ ($(id));
const query = new URLSearchParams(window.location.search);
const sweep = query.get('sweep');
const jobs = jobNames(query.get('jobs') ?? '');
/** @type {Map<string, ChartView>} */
const views = new Map();
let axis = 'step';
/** @type {Map<string, Map<string, any[]>>} */
let charts = new Map();

function source() {
  return sweep ? { sweep } : { jobs: jobs.join(',') };
}

async function start() {
  $('title').textContent = sweep ? `Sweep ${sweep}` : `${jobs.length} job${jobs.length === 1 ? '' : 's'}`;
  $('all-jobs').setAttribute('href', pageUrl('jobs').toString());
  $('as-json').setAttribute('href', pageUrl('compare', source()).toString());
  $('axis').addEventListener('change', (event) => {
    axis = /** @type {HTMLInputElement} */ (event.target).value;
    redraw(true);
  });
  $('csv').addEventListener('click', downloadCsv);
  $('add-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const names = jobNames(/** @type {HTMLInputElement} */ ($('add-names')).value, jobs);
    window.location.assign(pageUrl('compare', { jobs: names.join(',') }));
  });
  $('add-form').hidden = Boolean(sweep);
  if (!sweep && jobs.length === 0) {
    showNotice($('notice'), 'Name the runs to compare: add job names below, or open a sweep\'s compare link.');
    return;
  }
  await read();
}

async function read() {
  let comparison;
  try {
    comparison = await getJson(pageUrl('compare', source()));
  } catch (failure) {
    showNotice($('notice'), `${failure.title || 'Error'}: ${failure.message}`);
    return;
  }
  const runs = await Promise.all(comparison.runs.map(async (run) => ({
    name: run.name,
    startedAt: run.started_at,
    metrics: (await getJson(pageUrl(`jobs/${encodeURIComponent(run.name)}/metrics`))).metrics,
  })));
  charts = overlay(runs);
  $('charts-hint').hidden = charts.size > 0;
  redraw(false);
  renderRuns(comparison);
  renderRequests(comparison);
  if (comparison.runs.some((run) => !FINISHED_PHASES.has(run.phase)) || comparison.runs.length === 0) {
    laterWhenVisible(REFRESH_MS, read);
  }
}

function redraw(axisChanged) {
  const order = (a, b) => a.localeCompare(b, undefined, { numeric: true });
  for (const [metric, lines] of charts) {
    if (!views.has(metric) || axisChanged) {
      const view = new ChartView(metric, axis === 'time'
        ? { x: (p) => p.seconds, xLabel: 'seconds since the run started', order }
        : { x: (p) => p.step, xLabel: 'step', order });
      views.get(metric)?.figure.remove();
      views.set(metric, view);
      $('charts').append(view.figure);
    }
    views.get(metric)?.draw(lines);
  }
}

function renderRuns(comparison) {
  const { header, rows } = runsTable(comparison);
  const best = comparison.runs.length > 0 && comparison.objective ? bestRun(comparison) : null;
  table('runs').tHead.replaceChildren(el('tr', {}, ...header.map((h) => el('th', { text: h, attrs: { scope: 'col' } }))));
  table('runs').tBodies[0].replaceChildren(...rows.map((cells, i) => {
    const run = comparison.runs[i];
    const link = el('a', { text: run.name, attrs: { href: pageUrl(`jobs/${encodeURIComponent(run.name)}/status`).toString() } });
    const first = el('th', { attrs: { scope: 'row', 'data-label': header[0] } }, link);
    if (run.name === best) first.append(' ', badge('best'));
    const phase = el('td', { attrs: { 'data-label': header[1] } }, badge(cells[1]));
    return el('tr', { attrs: { 'data-run': run.name } }, first, phase,
      ...cells.slice(2).map((text, j) => el('td', { text, attrs: { 'data-label': header[j + 2] } })));
  }));
}

function bestRun(comparison) {
  const metric = comparison.objective.metric;
  const sign = comparison.objective.goal === 'maximize' ? -1 : 1;
  const scored = comparison.runs.filter((r) => r.metrics[metric]?.best !== undefined && r.reason !== 'EarlyStopped');
  scored.sort((a, b) => sign * (a.metrics[metric].best - b.metrics[metric].best));
  return scored[0]?.name ?? null;
}

function renderRequests(comparison) {
  table('requests').tHead.replaceChildren(el('tr', {}, el('th', { text: 'Field', attrs: { scope: 'col' } }),
    ...comparison.runs.map((run) => el('th', { text: run.name, attrs: { scope: 'col' } }))));
  table('requests').tBodies[0].replaceChildren(...comparison.requests.map((field) => {
    const name = el('th', { text: field.field, attrs: { scope: 'row' } });
    if (field.differs) name.append(' ', el('span', { className: 'differs-mark', text: 'differs' }));
    return el('tr', { className: field.differs ? 'differs' : '', attrs: { 'data-field': field.field } }, name,
      ...field.values.map((value, i) => el('td', { text: value ?? '—', attrs: { 'data-label': comparison.runs[i]?.name ?? '' } })));
  }));
}

/** The table as CSV, fetched with the token (a link would be opened without it) and saved from memory. */
async function downloadCsv() {
  const response = await fetch(pageUrl('compare', source()), { headers: withToken({ Accept: 'text/csv' }) });
  if (!response.ok) {
    showNotice($('notice'), `The CSV could not be read: HTTP ${response.status}`);
    return;
  }
  const link = el('a', { attrs: { href: URL.createObjectURL(await response.blob()), download: `${sweep || 'jobs'}-compared.csv` } });
  document.body.append(link);
  link.click();
  link.remove();
}

start();
