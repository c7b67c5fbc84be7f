// @ts-check
// The job's metrics into the charts: pushed by the status stream, or, without it, read
// (…/metrics?since=cursor) every second until a read says they are complete (the job has ended
// and the service has read its trainers' last lines, which may come seconds after its end).
import { getJson, laterWhenVisible, pageUrl } from './common.js';
import { Charts } from './charts.js';

const READ_INTERVAL_MS = 1000;
const RETRY_INTERVAL_MS = 3000;

export class MetricsFeed {
  constructor({ charts, hint, ignored }) {
    this.charts = new Charts(charts);
    this.hint = hint;
    this.ignored = ignored;
    this.since = 0;
    this.complete = false;
  }

  start() {
    this.read();
  }

  /** A read of …/metrics, polled or pushed (the status stream's metrics event). */
  apply(metrics) {
    this.since = metrics.cursor;
    this.complete = metrics.complete;
    this.charts.add(metrics.metrics);
    this.hint.hidden = !this.charts.empty;
    this.ignored.hidden = metrics.ignored_lines === 0;
    this.ignored.textContent = `${metrics.ignored_lines} metrics line${metrics.ignored_lines === 1 ? ' was' : 's were'} `
      + 'not charted: each must be PADDLEJOBS_METRICS, one space, then a JSON object with an integer "step" and numbers.';
  }

  async read() {
    let metrics;
    try {
      metrics = await getJson(pageUrl('metrics', { since: this.since }));
    } catch (failure) {
      if (![401, 403, 404].includes(failure.status)) laterWhenVisible(RETRY_INTERVAL_MS, () => this.read());
      return;
    }
    this.apply(metrics);
    if (!this.complete) {
      laterWhenVisible(READ_INTERVAL_MS, () => this.read());
    }
  }
}
