// @ts-check
// The job's metrics into the charts: pushed by the status stream, or, without it, read
// (…/metrics?since=cursor) every second while the job runs and until a read after its end brings
// nothing new (the service may still be reading the last lines).
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
    this.jobFinished = false;
  }

  start() {
    this.read();
  }

  /** Told by the status poll; the feed stops once it has read what the job's end left. */
  finished() {
    this.jobFinished = true;
  }

  /** A read of …/metrics, polled or pushed (the status stream's metrics event); returns whether it added points. */
  apply(metrics) {
    this.since = metrics.cursor;
    const added = this.charts.add(metrics.metrics);
    this.hint.hidden = !this.charts.empty;
    this.ignored.hidden = metrics.ignored_lines === 0;
    this.ignored.textContent = `${metrics.ignored_lines} metrics line${metrics.ignored_lines === 1 ? ' was' : 's were'} `
      + 'not charted: each must be PADDLEJOBS_METRICS, one space, then a JSON object with an integer "step" and numbers.';
    return added;
  }

  async read() {
    let metrics;
    try {
      metrics = await getJson(pageUrl('metrics', { since: this.since }));
    } catch (failure) {
      if (![401, 403, 404].includes(failure.status)) laterWhenVisible(RETRY_INTERVAL_MS, () => this.read());
      return;
    }
    const added = this.apply(metrics);
    const finishedBefore = this.jobFinished;
    if (!(finishedBefore && !added)) {
      laterWhenVisible(READ_INTERVAL_MS, () => this.read());
    }
  }
}
