// @ts-check
// The status page: reads the job once for its plan, then has the status and metrics pushed (this
// page's own URL as an event stream) until the job is finished; where that is not possible it polls
// the same URL, asked for JSON, every second, and a page in a background tab waits until it is seen.
import {
  FINISHED_PHASES, RequestFailed, formatDuration, getJson, laterWhenVisible, pageUrl, setPhase, setTime, showNotice,
} from './common.js';
import { renderPlan } from './plan.js';
import { Replicas } from './replicas.js';
import { MetricsFeed } from './metrics.js';
import { ActionButtons, allowedActions } from './actions.js';
import { RerunForm } from './rerun.js';
import { progressWords } from './progress.js';
import { describeCounts } from './format.js';
import { openEventStream } from './events.js';
import { StacksSection } from './stacks.js';
import { attemptChoices } from './stacks-model.js';

const POLL_INTERVAL_MS = 1000;
const RETRY_INTERVAL_MS = 3000;
const WHY_TITLES = {
  Pending: 'Why it is pending',
  Running: 'Note',
  Succeeded: 'Outcome',
  Failed: 'Why it failed',
  Cancelled: 'Why it stopped',
};

/** An element of the page by its id, as whatever element the page's HTML makes it. @param {string} id @returns {any} */
const $ = (id) => document.getElementById(id);
// The page is served at …/jobs/{name}/status.
const jobName = decodeURIComponent(window.location.pathname.split('/').at(-2));
const jobUrl = pageUrl(`../${encodeURIComponent(jobName)}`);
const replicas = new Replicas($('replicas').tBodies[0], $('logs'));
const actions = new ActionButtons(jobName, jobUrl, (verb) => {
  if (verb === 'delete') window.location.assign(pageUrl('../../jobs'));
});
let allowed = { cancel: false, delete: false, rerun: false };
const stacks = new StacksSection($('stacks'), jobUrl);
// The attempt whose logs the Logs section shows ('' the current one), as the person picked it.
$('log-attempt').addEventListener('change', () => replicas.setAttempt($('log-attempt').value));
const metrics = new MetricsFeed({ charts: $('charts'), hint: $('charts-hint'), ignored: $('charts-ignored') });
// The phase the plan was read in: a queued job is given its ports when it starts, so the plan is
// read again when the phase moves on.
let planReadIn;
let lastStatus;
// The elapsed time moves on between updates, which may be many seconds apart when pushed.
const clock = setInterval(() => {
  if (!lastStatus) return;
  renderTime(lastStatus);
  if (FINISHED_PHASES.has(lastStatus.phase)) clearInterval(clock);
}, 1000);

async function start() {
  $('job-name').textContent = jobName;
  $('all-jobs').href = pageUrl('../../jobs');
  $('job-json').href = jobUrl;
  let job;
  try {
    job = await getJson(jobUrl);
  } catch (failure) {
    showFailure(failure);
    return;
  }
  $('namespace').textContent = job.namespace;
  // A sweep's trial compares with its sweep; any job with whatever runs are added on that page.
  const sweep = job.plan.spec.labels?.['sweep.paddlejobs.io/sweep'];
  $('compare').href = pageUrl('../../compare', sweep ? { sweep } : { jobs: jobName }).toString();
  $('compare').textContent = sweep ? `Compare sweep ${sweep}` : 'Compare with other runs';
  $('shape').textContent = job.plan.spec.mode === 'collective'
    ? `${plural(job.plan.trainers.count, 'trainer')}, collective (no pservers)`
    : `${plural(job.plan.pservers.count, 'pserver')}, ${plural(job.plan.trainers.count, 'trainer')}`;
  renderPlan(job.plan, job.warnings);
  $('actions').append(actions.element);
  allowed = await allowedActions(jobUrl);
  new RerunForm($('rerun'), jobUrl, job.plan).show(allowed.rerun);
  planReadIn = job.status.phase;
  render(job.status);
  if (FINISHED_PHASES.has(job.status.phase) || !listen()) {
    pollInstead();
  }
}

function pollInstead() {
  metrics.start();
  if (!FINISHED_PHASES.has(lastStatus.phase)) {
    laterWhenVisible(POLL_INTERVAL_MS, poll);
  }
}

/**
 * Has the service push the status and the metrics (Server-Sent Events on this page's URL, read with
 * fetch, so with a token too); where the stream breaks, the page polls.
 */
function listen() {
  const events = openEventStream(window.location.href, {
    status: (event) => onStatus(JSON.parse(event.data)),
    metrics: (event) => onMetrics(JSON.parse(event.data)),
    end: () => events.close(),
    gone: () => {
      events.close();
      poll(); // shows the service's words for a job that is not there
    },
    error: () => {
      events.close();
      pollInstead();
    },
  });
  return true;
}

async function poll() {
  let status;
  try {
    status = await getJson(window.location.href);
  } catch (failure) {
    if (failure instanceof RequestFailed && [401, 403, 404].includes(failure.status)) {
      showFailure(failure); // deleted while we watched, or the token no longer lets us see it
      return;
    }
    showNotice($('notice'), 'Lost contact with the service; trying again…');
    laterWhenVisible(RETRY_INTERVAL_MS, poll);
    return;
  }
  onStatus(status);
  if (!FINISHED_PHASES.has(status.phase)) {
    laterWhenVisible(POLL_INTERVAL_MS, poll);
  }
}

function onMetrics(read) {
  metrics.apply(read);
  if (read.progress) renderSteps(read.progress);
}

function onStatus(status) {
  $('notice').hidden = true;
  render(status);
  if (status.phase !== planReadIn) {
    planReadIn = status.phase;
    // If this read fails, the plan shown stays as it was; the status above is what matters.
    getJson(jobUrl).then((job) => renderPlan(job.plan, job.warnings), () => {});
  }
}

function render(status) {
  lastStatus = status;
  setPhase($('phase'), status.phase);
  document.title = `${jobName} · ${status.phase} · paddle-jobs`;
  renderWhy(status);
  renderTime(status);
  renderRestarts(status);
  renderProgress(status);
  replicas.render(status.replicas, FINISHED_PHASES.has(status.phase));
  renderLogAttempts(status);
  stacks.update(status, allowed);
  actions.update(allowed, FINISHED_PHASES.has(status.phase));
}

function renderWhy(status) {
  const why = $('why');
  why.hidden = !status.reason && !status.message;
  why.className = `why why-${status.phase.toLowerCase()}`;
  $('why-title').textContent = WHY_TITLES[status.phase] || 'Why';
  $('reason').textContent = status.reason || '';
  $('reason-sep').hidden = !(status.reason && status.message);
  $('message').textContent = status.message || '';
  const failed = status.replicas.find((replica) => replica.state === 'Failed');
  $('failed-log').hidden = !failed;
  if (failed) {
    const link = $('failed-log-link');
    link.href = `#log-${failed.id}`;
    link.textContent = `See the end of ${failed.id}'s log`;
  }
}

function renderTime(status) {
  // A job whose trainers finish before its last replica starts never reports started_at (it was
  // never wholly running); for a person it started when its first replica did.
  const startedAt = status.started_at || earliest(status.replicas.map((replica) => replica.started_at));
  setTime($('created-at'), status.created_at);
  setTime($('started-at'), startedAt);
  setTime($('finished-at'), status.finished_at);
  const finished = FINISHED_PHASES.has(status.phase);
  const end = finished && status.finished_at ? Date.parse(status.finished_at) : Date.now();
  let label;
  let from;
  if (startedAt) {
    label = finished ? 'Ran for' : 'Running for';
    from = startedAt;
  } else {
    label = finished ? 'Ended after' : 'Waiting for';
    from = status.created_at;
  }
  const queued = status.queue_position !== undefined && status.queue_position !== null;
  $('queue-label').hidden = !queued;
  $('queue').hidden = !queued;
  $('queue').textContent = queued ? `position ${status.queue_position}${status.queue_position === 1 ? ', next to start' : ''}` : '';
  $('elapsed-label').textContent = label;
  $('elapsed').textContent = formatDuration(end - Date.parse(from));
}

/** How many restarts the job had, and how each attempt ended, in the job's own words. */
function renderRestarts(status) {
  const attempts = status.attempts || [];
  const shown = attempts.length > 0 || (status.restarts || 0) > 0;
  $('restarts-label').hidden = !shown;
  $('restarts').hidden = !shown;
  $('restarts').textContent = String(status.restarts || 0);
  const list = $('attempts');
  list.hidden = attempts.length === 0;
  list.replaceChildren(...attempts.map((attempt) => {
    const item = document.createElement('li');
    const outcome = attempt.finished_at ? `${attempt.reason || 'Ended'}: ${attempt.message || ''}` : 'running';
    // Numbered from 0, as the JSON, the logs' attempt=N and PADDLE_JOB_RESTART_COUNT number them.
    item.textContent = `Attempt ${attempt.number}: ${outcome}`;
    item.dataset.attempt = String(attempt.number);
    return item;
  }));
}

/** Lets the person pick whose attempt's logs the Logs section shows, once there is more than one. */
function renderLogAttempts(status) {
  const choices = attemptChoices(status.attempts || []);
  const select = $('log-attempt');
  const offered = [...select.options].map((option) => option.value + option.textContent).join();
  if (offered === choices.map((choice) => choice.value + choice.label).join()) return;
  const picked = select.value;
  select.replaceChildren(...choices.map((choice) => {
    const option = document.createElement('option');
    option.value = choice.value;
    option.textContent = choice.label;
    return option;
  }));
  $('log-attempt-row').hidden = choices.length === 0;
  // What was picked stays picked; the current attempt's logs ('') are the default.
  select.value = choices.some((choice) => choice.value === picked) ? picked : '';
  if (select.value !== picked) replicas.setAttempt(select.value);
}

function earliest(instants) {
  const known = instants.filter(Boolean).sort((a, b) => Date.parse(a) - Date.parse(b));
  return known[0];
}

/**
 * One bar: the training's steps where the trainers report a total, else how many trainers finished. The
 * counts of a role the job does not have (a collective job's pservers) are left out.
 */
function renderProgress(status) {
  const trainers = status.trainers;
  const steps = Boolean(status.progress && status.progress.total_steps);
  const progress = $('progress');
  progress.hidden = steps;
  progress.max = Math.max(1, trainers.desired);
  progress.value = trainers.succeeded;
  $('progress-text').textContent = `${trainers.succeeded} of ${plural(trainers.desired, 'trainer')} finished`;
  if (status.progress) renderSteps(status.progress);
  const pservers = describeCounts(status.pservers);
  $('pserver-counts').hidden = pservers === null;
  $('pserver-counts').previousElementSibling.hidden = pservers === null;
  $('pserver-counts').textContent = pservers || '';
  $('trainer-counts').textContent = describeCounts(status.trainers) || '—';
}

/**
 * The training's steps, of their total when the trainers report one. They come with the status
 * when it changes and, in between, with the metrics (pushed or polled), whichever is newer.
 */
function renderSteps(progress) {
  const steps = $('steps');
  steps.hidden = !progress.total_steps;
  $('progress').hidden = Boolean(progress.total_steps);
  if (progress.total_steps) {
    steps.max = progress.total_steps;
    steps.value = Math.min(progress.step, progress.total_steps);
  }
  $('steps-text').hidden = false;
  $('steps-text').textContent = progressWords(progress);
}

function showFailure(failure) {
  const words = failure instanceof RequestFailed ? `${failure.title}: ${failure.message}` : String(failure);
  showNotice($('notice'), words);
  const phases = { 401: 'Token needed', 403: 'Not allowed', 404: 'Not found' };
  $('phase').textContent = phases[failure.status] || 'Unavailable';
  $('phase').className = 'phase phase-unknown';
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

start();
