// @ts-check
// The compare page's pure parts: no DOM, no fetch, so that `node --test` (src/test/js/) checks them as they are.

/**
 * @typedef {{step: number, value: number, time: string}} MetricPoint
 * @typedef {{step: number, value: number, seconds: number}} ChartPoint
 * @typedef {{name: string, phase: string, reason?: string, started_at?: string,
 *   parameters: Record<string, unknown>, metrics: Record<string, {last: number, last_step: number, min: number,
 *   max: number, best?: number}>}} Run
 */

/** trainer-2 before trainer-10, as the service orders replicas. */
function replicaOrder(/** @type {string} */ a, /** @type {string} */ b) {
  const role = (/** @type {string} */ r) => r.replace(/-\d+$/, '');
  const index = (/** @type {string} */ r) => Number(r.match(/\d+$/)?.[0] ?? -1);
  return role(a) === role(b) ? index(a) - index(b) : role(a).localeCompare(role(b));
}

/**
 * Each run's metrics overlaid: metric name to run name to its points, the series of the run's first
 * reporting trainer (as the service sums it up), each point with `seconds` since the run started (its
 * `started_at`, else its first point), so that runs started hours apart share one time axis.
 * @param {Array<{name: string, startedAt?: string, metrics: Record<string, Record<string, MetricPoint[]>>}>} runs
 * @returns {Map<string, Map<string, ChartPoint[]>>}
 */
export function overlay(runs) {
  /** @type {Map<string, Map<string, ChartPoint[]>>} */
  const charts = new Map();
  for (const run of runs) {
    for (const [metric, replicas] of Object.entries(run.metrics)) {
      const first = Object.keys(replicas).filter((r) => replicas[r].length > 0).sort(replicaOrder)[0];
      if (first === undefined) continue;
      const points = replicas[first];
      const origin = Date.parse(run.startedAt ?? points[0].time);
      if (!charts.has(metric)) charts.set(metric, new Map());
      charts.get(metric)?.set(run.name, points.map((p) => ({
        step: p.step, value: p.value, seconds: Math.max(0, (Date.parse(p.time) - origin) / 1000),
      })));
    }
  }
  return new Map([...charts.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The runs table: a header and a row of text per run (run, phase, each parameter, then per metric its last
 * value and its best where the comparison has an objective for it, else its lowest and highest).
 * @param {{parameters: string[], metrics: string[], runs: Run[], objective?: {metric: string}}} comparison
 * @returns {{header: string[], rows: string[][]}}
 */
export function runsTable(comparison) {
  const objective = comparison.objective?.metric;
  const header = ['Run', 'Phase', ...comparison.parameters];
  for (const metric of comparison.metrics) {
    header.push(`${metric} last`, metric === objective ? `${metric} best` : `${metric} min … max`);
  }
  const rows = comparison.runs.map((run) => {
    const cells = [run.name, run.reason === 'EarlyStopped' ? 'Stopped early' : run.phase,
      ...comparison.parameters.map((p) => text(run.parameters[p]))];
    for (const metric of comparison.metrics) {
      const summary = run.metrics[metric];
      if (!summary) {
        cells.push('', '');
      } else {
        cells.push(`${number(summary.last)} (step ${summary.last_step})`,
          metric === objective ? number(summary.best) : `${number(summary.min)} … ${number(summary.max)}`);
      }
    }
    return cells;
  });
  return { header, rows };
}

/**
 * The runs' names as a list parameter (`jobs=a,b,c`) from what a person typed: names split on commas and
 * white space, each kept once, in order.
 * @param {string} typed
 * @param {string[]} [already]
 * @returns {string[]}
 */
export function jobNames(typed, already = []) {
  const names = [...already, ...typed.split(/[\s,]+/)].map((n) => n.trim()).filter((n) => n !== '');
  return [...new Set(names)];
}

const NUMBER = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 5 });

/** @param {number | undefined} value */
function number(value) {
  return value === undefined || value === null ? '' : NUMBER.format(value);
}

/** @param {unknown} value */
function text(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'number' ? NUMBER.format(value) : String(value);
}
