// @ts-check
// The charts of the status page: one SVG line chart per metric, one line per trainer, drawn here
// (no library). Points arrive in pieces (GET …/metrics?since=); they are merged by step, so a
// piece read twice, or read again after the service restarted, changes nothing. A restarted job's
// chart marks where each attempt began; a chart of values above zero offers a logarithmic scale.
import { el } from './common.js';
import { attemptStarts, fitsLogScale, linearAxis, logAxis } from './chart-model.js';

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 220;
const MARGIN = { top: 12, right: 16, bottom: 40, left: 64 };
// As the service does: past this many points a line keeps every other older one, and its last.
const MAX_POINTS = 2000;
// Colour-blind-safe colours (Okabe–Ito), each with its own dash pattern: colour is never the only signal.
const COLOURS = ['#0072b2', '#d55e00', '#cc79a7', '#009e73', '#8a5a00', '#56b4e9', '#1f2328'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];
const NUMBER = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

export class Charts {
  constructor(container) {
    this.container = container;
    this.metrics = new Map(); // name -> Map(replica -> [{step, value}])
    this.views = new Map(); // name -> ChartView
  }

  get empty() {
    return this.metrics.size === 0;
  }

  /** Adds a read of the metrics endpoint; returns whether it brought any point. */
  add(metrics) {
    let added = false;
    for (const [name, replicas] of Object.entries(metrics)) {
      if (!this.metrics.has(name)) this.metrics.set(name, new Map());
      const lines = this.metrics.get(name);
      for (const [replica, points] of Object.entries(replicas)) {
        if (points.length === 0) continue;
        lines.set(replica, merge(lines.get(replica) || [], points));
        added = true;
      }
    }
    if (added) this.draw();
    return added;
  }

  draw() {
    for (const [name, lines] of this.metrics) {
      if (!this.views.has(name)) {
        const view = new ChartView(name, { marksAttempts: true });
        this.views.set(name, view);
        this.container.append(view.figure);
      }
      this.views.get(name).draw(lines);
    }
  }
}

function merge(line, points) {
  const fresh = points.map((p) => ({ step: p.step, value: p.value, attempt: p.attempt ?? 0 }));
  let merged;
  if (line.length === 0 || fresh[0].step > line[line.length - 1].step) {
    merged = line.concat(fresh);
  } else {
    const byStep = new Map(line.map((p) => [p.step, p]));
    for (const p of fresh) byStep.set(p.step, p);
    merged = [...byStep.values()].sort((a, b) => a.step - b.step);
  }
  while (merged.length > MAX_POINTS) {
    merged = merged.filter((p, i) => i % 2 === 0 || i === merged.length - 1);
  }
  return merged;
}

/**
 * One chart: a line per series (a trainer, or a run on the compare page). `x` picks a point's position
 * (its step by default), `xLabel` names the axis, `order` sorts the series for the legend; with
 * `marksAttempts`, a line marks the step where each attempt after the first began.
 */
export class ChartView {
  constructor(name, { x = (p) => p.step, xLabel = 'step', order = replicaOrder, marksAttempts = false } = {}) {
    this.name = name;
    this.x = x;
    this.xLabel = xLabel;
    this.order = order;
    this.marksAttempts = marksAttempts;
    this.lines = new Map();
    const id = `chart-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
    // A loss that falls from 70 to 0.3 is a flat line after its first tenth on a linear axis.
    this.logScale = el('input', { attrs: { type: 'checkbox', id: `${id}-log`, 'data-log-scale': name } });
    this.logScale.addEventListener('change', () => this.draw(this.lines));
    this.logScaleLabel = el('label', { className: 'chart-scale', attrs: { for: `${id}-log` } }, this.logScale, ' log scale');
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('class', 'chart-plot');
    this.svg.setAttribute('aria-hidden', 'true'); // the legend below says the same in words
    this.legend = el('ul', { className: 'chart-legend' });
    this.summary = el('p', { className: 'visually-hidden', attrs: { id: `${id}-summary` } });
    this.figure = el('figure', { className: 'chart', attrs: { id, 'data-metric': name, 'aria-describedby': `${id}-summary` } },
      el('figcaption', { className: 'chart-title' }, el('span', { text: name }), this.logScaleLabel),
      this.svg, this.legend, this.summary);
    // Drawn at the figure's width, and again when that changes: a window resized, or a chart added beside it (the
    // first of a grid's charts is as wide as the grid until the second comes, and scaled down it read at half size).
    this.drawnWidth = 0;
    new ResizeObserver(() => {
      if (this.lines.size > 0 && this.width() !== this.drawnWidth) this.draw(this.lines);
    }).observe(this.figure);
  }

  /** The figure's width inside its padding: the SVG's, so that it is shown at the size it was drawn. */
  width() {
    const style = getComputedStyle(this.figure);
    const inside = this.figure.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.max(280, Math.floor(inside || 600));
  }

  draw(lines) {
    this.lines = lines;
    const entries = [...lines.entries()].filter(([, points]) => points.length > 0).sort(([a], [b]) => this.order(a, b));
    if (entries.length === 0) return;
    const width = this.width();
    this.drawnWidth = width;
    const plot = { x: MARGIN.left, y: MARGIN.top, w: width - MARGIN.left - MARGIN.right, h: HEIGHT - MARGIN.top - MARGIN.bottom };
    const all = entries.flatMap(([, points]) => points);
    const values = all.map((p) => p.value);
    const logFits = fitsLogScale(values);
    this.logScaleLabel.hidden = !logFits;
    const log = logFits && this.logScale.checked;
    const xs = linearAxis(Math.min(...all.map(this.x)), Math.max(...all.map(this.x)));
    const ys = (log ? logAxis : linearAxis)(Math.min(...values), Math.max(...values));
    const atX = (x) => plot.x + xs.at(x) * plot.w;
    const sx = (point) => atX(this.x(point));
    const sy = (value) => plot.y + plot.h - ys.at(value) * plot.h;

    const parts = [];
    for (const tick of ys.ticks) {
      parts.push(svg('line', { class: 'chart-grid', x1: plot.x, x2: plot.x + plot.w, y1: sy(tick), y2: sy(tick) }));
      parts.push(svg('text', { class: 'chart-tick', x: plot.x - 6, y: sy(tick), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, NUMBER.format(tick)));
    }
    for (const tick of xs.ticks) {
      const at = atX(tick);
      parts.push(svg('line', { class: 'chart-axis', x1: at, x2: at, y1: plot.y + plot.h, y2: plot.y + plot.h + 4 }));
      parts.push(svg('text', { class: 'chart-tick', x: at, y: plot.y + plot.h + 16, 'text-anchor': 'middle' }, NUMBER.format(tick)));
    }
    parts.push(svg('line', { class: 'chart-axis', x1: plot.x, x2: plot.x + plot.w, y1: plot.y + plot.h, y2: plot.y + plot.h }));
    parts.push(svg('line', { class: 'chart-axis', x1: plot.x, x2: plot.x, y1: plot.y, y2: plot.y + plot.h }));
    parts.push(svg('text', { class: 'chart-label', x: plot.x + plot.w / 2, y: HEIGHT - 4, 'text-anchor': 'middle' }, this.xLabel));
    parts.push(svg('text', {
      class: 'chart-label', x: 12, y: plot.y + plot.h / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${plot.y + plot.h / 2})`,
    }, this.name));
    const starts = this.marksAttempts ? attemptStarts(entries.map(([, points]) => points)) : [];
    for (const { attempt, step } of starts) {
      parts.push(svg('line', { class: 'chart-attempt', x1: atX(step), x2: atX(step), y1: plot.y, y2: plot.y + plot.h }));
      parts.push(svg('text', { class: 'chart-attempt-label', x: atX(step) + 3, y: plot.y + 10, 'data-attempt': attempt, 'data-step': step },
        `attempt ${attempt}`));
    }

    const legend = [];
    const words = [];
    entries.forEach(([replica, points], i) => {
      const style = { stroke: COLOURS[i % COLOURS.length], 'stroke-dasharray': DASHES[Math.floor(i / COLOURS.length) % DASHES.length] };
      const d = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p).toFixed(1)},${sy(p.value).toFixed(1)}`).join('');
      parts.push(svg('path', { class: 'chart-line', d, 'data-replica': replica, ...style }));
      const last = points[points.length - 1];
      if (points.length === 1) {
        parts.push(svg('circle', { class: 'chart-dot', cx: sx(last), cy: sy(last.value), r: 3, fill: style.stroke }));
      }
      const sample = document.createElementNS(SVG, 'svg');
      sample.setAttribute('class', 'chart-swatch');
      sample.setAttribute('viewBox', '0 0 24 8');
      sample.setAttribute('aria-hidden', 'true');
      sample.append(svg('line', { x1: 0, x2: 24, y1: 4, y2: 4, class: 'chart-line', ...style }));
      const lastWords = `${NUMBER.format(last.value)} at step ${NUMBER.format(last.step)}`;
      legend.push(el('li', { attrs: { 'data-replica': replica } }, sample,
        el('span', { className: 'replica-id', text: replica }), ' ', el('span', { className: 'chart-last', text: lastWords })));
      words.push(`${replica} ${lastWords}`);
    });

    this.svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(HEIGHT));
    this.svg.replaceChildren(...parts);
    this.legend.replaceChildren(...legend);
    const began = starts.map(({ attempt, step }) => `; attempt ${attempt} began at step ${NUMBER.format(step)}`).join('');
    this.summary.textContent = `${this.name}${log ? ' (log scale)' : ''}, last values: ${words.join('; ')}${began}.`;
  }
}

function svg(tag, attrs, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== '' && value !== undefined) element.setAttribute(name, value);
  }
  if (text !== undefined) element.textContent = text;
  return element;
}

/** trainer-2 before trainer-10, as the service lists them. */
function replicaOrder(a, b) {
  const [roleA, indexA] = [a.replace(/-\d+$/, ''), Number(a.match(/\d+$/)?.[0] ?? -1)];
  const [roleB, indexB] = [b.replace(/-\d+$/, ''), Number(b.match(/\d+$/)?.[0] ?? -1)];
  return roleA === roleB ? indexA - indexB : roleA.localeCompare(roleB);
}
