// @ts-check
// What a chart draws, worked out without the page: where each attempt of a restarted job began, and
// the axes (linear, or logarithmic for a loss that falls over decades). Imports nothing, so that
// src/test/js tests it in Node.

/**
 * Where each attempt after the first one charted began: the lowest step any series reported in it.
 * A job that never restarted gets none.
 *
 * @param {Iterable<{step: number, attempt?: number}[]>} lines the chart's series
 * @returns {{attempt: number, step: number}[]} in the order of the attempts
 */
export function attemptStarts(lines) {
  /** @type {Map<number, number>} */
  const first = new Map();
  for (const points of lines) {
    for (const point of points) {
      const attempt = point.attempt ?? 0;
      if (!first.has(attempt) || point.step < /** @type {number} */ (first.get(attempt))) first.set(attempt, point.step);
    }
  }
  const attempts = [...first.keys()].sort((a, b) => a - b);
  return attempts.slice(1).map((attempt) => ({ attempt, step: /** @type {number} */ (first.get(attempt)) }));
}

/** Whether values can go on a logarithmic axis: all of them above zero. @param {number[]} values */
export function fitsLogScale(values) {
  return values.length > 0 && values.every((value) => value > 0 && Number.isFinite(value));
}

/**
 * A linear axis from min to max on round numbers, with about five ticks.
 *
 * @returns {{min: number, max: number, ticks: number[], at: (value: number) => number}} `at` places a value
 *          between 0 (min) and 1 (max)
 */
export function linearAxis(min, max) {
  if (min === max) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    min -= pad;
    max += pad;
  }
  const rough = (max - min) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = /** @type {number} */ ([1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough));
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  const ticks = [];
  for (let t = low; t <= high + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { min: low, max: high, ticks, at: (value) => (value - low) / (high - low) };
}

/**
 * A logarithmic axis over whole decades around min..max (both above zero): a tick at each power of ten,
 * and at 2 and 5 times it where the values span fewer than three decades.
 */
export function logAxis(min, max) {
  const low = Math.floor(Math.log10(min));
  let high = Math.ceil(Math.log10(max));
  if (high === low) high = low + 1;
  const multiples = high - low < 3 ? [1, 2, 5] : [1];
  const ticks = [];
  for (let decade = low; decade <= high; decade++) {
    for (const m of multiples) {
      const tick = Number((m * 10 ** decade).toPrecision(12));
      if (tick <= 10 ** high) ticks.push(tick);
    }
  }
  return { min: 10 ** low, max: 10 ** high, ticks, at: (value) => (Math.log10(value) - low) / (high - low) };
}
