// @ts-check
// The pages' pure parts: no DOM, no fetch, so that `node --test` (src/test/js/) checks them as they are.

const BINARY = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 };
const DECIMAL = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/**
 * A Kubernetes quantity of memory as a person reads it: "24683784Ki" is "23.5 GiB", "1Gi" is "1 GiB".
 * Text that is no quantity is shown as it came.
 * @param {string | number | null | undefined} quantity
 * @returns {string}
 */
export function humanBytes(quantity) {
  if (quantity === null || quantity === undefined) return '';
  const match = /^([0-9]+(?:\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$/.exec(String(quantity).trim());
  if (!match) return String(quantity);
  const suffix = match[2];
  const factor = suffix === undefined ? 1 : (BINARY[/** @type {keyof BINARY} */ (suffix)]
    || DECIMAL[/** @type {keyof DECIMAL} */ (suffix)]);
  let bytes = Number(match[1]) * factor;
  let unit = 0;
  while (bytes >= 1024 && unit < UNITS.length - 1) {
    bytes /= 1024;
    unit++;
  }
  const digits = bytes >= 100 || Number.isInteger(bytes) ? 0 : 1;
  return `${Number(bytes.toFixed(digits))} ${UNITS[unit]}`;
}

/**
 * @typedef {{desired: number, pending: number, running: number, succeeded: number, failed: number,
 *   stopped?: number}} RoleCounts
 */

/**
 * "2 running", "1 succeeded, 1 failed, 1 stopped (of 3)": the non-zero counts, in the order a job moves;
 * null for a role the job does not have (a collective job's pservers), which a page leaves out.
 * @param {RoleCounts} counts
 * @returns {string | null}
 */
export function describeCounts(counts) {
  if (!counts || counts.desired === 0) return null;
  // A service older than the stopped count: what is in none of the other states was stopped.
  const stopped = counts.stopped
    ?? counts.desired - counts.pending - counts.running - counts.succeeded - counts.failed;
  const parts = [['pending', counts.pending], ['running', counts.running], ['succeeded', counts.succeeded],
    ['failed', counts.failed], ['stopped', stopped]]
    .filter(([, n]) => Number(n) > 0)
    .map(([word, n]) => `${n} ${word}`);
  return parts.length === 0 ? `none yet (of ${counts.desired})` : `${parts.join(', ')} (of ${counts.desired})`;
}

/**
 * Server-Sent Events read from a fetch (which, unlike EventSource, can send the page's token): text goes
 * in as it arrives, in pieces of any size; whole events come out, by the WHATWG framing (event: and data:
 * fields, a blank line ends an event, a line starting with ':' is a comment).
 */
export class EventStreamParser {
  constructor() {
    /** @type {string} */
    this.pending = '';
    /** @type {string} */
    this.name = 'message';
    /** @type {string[]} */
    this.data = [];
  }

  /**
   * @param {string} text
   * @returns {{name: string, data: string}[]} the events this text completed
   */
  push(text) {
    this.pending += text;
    /** @type {{name: string, data: string}[]} */
    const events = [];
    let end;
    while ((end = this.pending.search(/\r\n|\r|\n/)) >= 0) {
      // A '\r' last in a piece may be half of a '\r\n': wait for the next piece.
      if (this.pending[end] === '\r' && end === this.pending.length - 1) break;
      const line = this.pending.slice(0, end);
      const breakLength = this.pending.startsWith('\r\n', end) ? 2 : 1;
      this.pending = this.pending.slice(end + breakLength);
      if (line === '') {
        if (this.data.length > 0) events.push({ name: this.name, data: this.data.join('\n') });
        this.name = 'message';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.name = value;
      else if (field === 'data') this.data.push(value);
    }
    return events;
  }
}
