// @ts-check
// The topology table and the log tails of the status page, one row and one log per replica.
import { badge, el, getText, labelled, pageUrl, stream } from './common.js';

const LOG_LINES = 20;
// Log tails are fetched every other status poll while a replica runs, and once more when it stops.
const LOG_EVERY_RENDERS = 2;
// Small jobs show every log; larger ones open trainer-0 and failed replicas (the rest open on click).
const OPEN_ALL_LOGS_UP_TO = 8;
// A followed log keeps its last this many characters on the page.
const FOLLOW_KEEP_CHARS = 200000;
// One log followed at a time: a browser opens only a few connections to one service at once.
let followed = null;

export class Replicas {
  constructor(tbody, logs) {
    this.tbody = tbody;
    this.logs = logs;
    this.views = new Map();
    this.renders = 0;
    this.attempt = '';
  }

  /** Shows the logs of this earlier attempt (its number, from 0), or of the current one (''). */
  setAttempt(attempt) {
    this.attempt = attempt;
    for (const view of this.views.values()) view.setAttempt(attempt);
  }

  render(replicas, jobFinished) {
    const ids = replicas.map((replica) => replica.id).join();
    if (ids !== [...this.views.keys()].join()) {
      this.build(replicas);
    }
    const tailsDue = jobFinished || this.renders % LOG_EVERY_RENDERS === 0;
    this.renders += 1;
    for (const replica of replicas) {
      this.views.get(replica.id).update(replica, tailsDue);
    }
  }

  build(replicas) {
    this.views.clear();
    const openAll = replicas.length <= OPEN_ALL_LOGS_UP_TO;
    for (const replica of replicas) {
      const open = openAll || (replica.role === 'trainer' && replica.index === 0);
      this.views.set(replica.id, new ReplicaView(replica, open));
    }
    if (this.attempt) this.setAttempt(this.attempt);
    const views = [...this.views.values()];
    this.tbody.replaceChildren(...views.map((view) => view.row));
    this.logs.replaceChildren(...views.map((view) => view.log));
  }
}

class ReplicaView {
  constructor(replica, open) {
    const fullLog = pageUrl('logs', { role: replica.role, index: replica.index });
    this.attempt = '';
    this.host = labelled('Host', replica.host);
    this.gpus = labelled('GPUs', null);
    this.state = labelled('State', null);
    this.restarts = labelled('Restarts', null);
    this.exitCode = labelled('Exit code', null);
    this.detail = labelled('Detail', null);
    // The row's link and the log box's: both follow the attempt shown (setAttempt).
    this.fullLogLinks = [
      el('a', { text: 'Full log', attrs: { href: fullLog, 'aria-label': `Full log of ${replica.id}`, 'data-api': '' } }),
      el('a', { text: `Full log of ${replica.id}`, attrs: { href: fullLog, 'data-api': '' } }),
    ];
    this.row = el('tr', {}, el('th', { text: replica.id, attrs: { scope: 'row' } }),
      this.host, this.gpus, this.state, this.restarts, this.exitCode, this.detail,
      labelled('Log', null, this.fullLogLinks[0]));

    this.logState = el('span');
    this.tail = el('pre', { className: 'log', text: 'Nothing written yet.', attrs: { tabindex: '0', 'aria-label': `Last lines of ${replica.id}'s log` } });
    this.log = el('details', { className: 'log-box', attrs: { id: `log-${replica.id}` } },
      el('summary', {}, el('span', { className: 'replica-id', text: replica.id }), ' ', this.logState),
      this.tail,
      el('p', { className: 'log-links' }, this.followButton(replica), this.fullLogLinks[1]));
    this.log.open = open;
    // Opened by a person (or below, on failure): show its tail now rather than at the next poll.
    this.log.addEventListener('toggle', () => {
      if (this.log.open && this.tailFetchedIn !== this.replica.state) {
        this.fetchTail();
      }
    });
    this.replica = replica;
    this.tailFetchedIn = null;
  }

  /** The query of this replica's log in the attempt shown: an earlier attempt's by its number. */
  logParams(params) {
    return this.attempt ? { ...params, attempt: this.attempt } : params;
  }

  /** Shows an earlier attempt's log (its number), or the current one's (''): links and tail follow. */
  setAttempt(attempt) {
    if (attempt === this.attempt) return;
    if (this.following) this.stopFollowing();
    this.attempt = attempt;
    const href = pageUrl('logs', this.logParams({ role: this.replica.role, index: this.replica.index })).toString();
    for (const link of this.fullLogLinks) link.setAttribute('href', href);
    this.follow.hidden = Boolean(attempt) || (this.replica.state !== 'Pending' && this.replica.state !== 'Running');
    this.followedToEnd = false;
    this.tailFetchedIn = null;
    if (this.log.open) this.fetchTail();
  }

  followButton(replica) {
    this.follow = el('button', {
      className: 'action follow', text: 'Follow live',
      attrs: { type: 'button', 'aria-pressed': 'false', 'aria-label': `Follow ${replica.id}'s log live` },
    });
    this.follow.addEventListener('click', () => (this.following ? this.stopFollowing() : this.startFollowing()));
    return this.follow;
  }

  /** Streams the whole log (follow=true) into the box until the replica ends or the person stops it. */
  async startFollowing() {
    if (followed) followed.stopFollowing();
    followed = this;
    this.following = new AbortController();
    this.follow.textContent = 'Stop following';
    this.follow.setAttribute('aria-pressed', 'true');
    this.tail.setAttribute('aria-label', `${this.replica.id}'s log, followed live`);
    this.tail.textContent = '';
    this.followedToEnd = false;
    const url = pageUrl('logs', { role: this.replica.role, index: this.replica.index, follow: true });
    try {
      await stream(url, (text) => {
        const all = this.tail.textContent + text;
        this.tail.textContent = all.length > FOLLOW_KEEP_CHARS ? all.slice(-FOLLOW_KEEP_CHARS) : all;
        this.tail.scrollTop = this.tail.scrollHeight;
      }, this.following.signal);
      this.tail.append(`\n— ${this.replica.id} has ended —`);
      this.followedToEnd = true; // the box holds the whole log now: no tail replaces it
    } catch (failure) {
      if (failure.name !== 'AbortError') this.tail.append(`\nCould not follow the log: ${failure.message}`);
    }
    this.stopFollowing();
  }

  stopFollowing() {
    if (!this.following) return;
    this.following.abort();
    this.following = null;
    if (followed === this) followed = null;
    this.follow.textContent = 'Follow live';
    this.follow.setAttribute('aria-pressed', 'false');
    this.tail.setAttribute('aria-label', `Last lines of ${this.replica.id}'s log`);
  }

  update(replica, tailsDue) {
    const stateChanged = replica.state !== this.replica.state || this.state.childElementCount === 0;
    this.replica = replica;
    this.host.textContent = replica.host;
    // Only the local backend hands out GPUs itself; elsewhere the cluster's scheduler places them.
    this.gpus.textContent = replica.gpus?.length ? replica.gpus.join(', ') : '—';
    if (stateChanged) {
      this.state.replaceChildren(badge(replica.state));
      this.logState.replaceChildren(badge(replica.state));
    }
    this.restarts.textContent = replica.restarts;
    this.exitCode.textContent = replica.exit_code ?? '—';
    this.detail.textContent = replica.reason || (replica.state === 'Stopped' ? 'stopped by the service' : '');
    if (replica.state === 'Failed') {
      this.log.open = true; // what people come to see
    }
    const ended = replica.state !== 'Pending' && replica.state !== 'Running';
    // A finished log is all there in its full log; an earlier attempt's has ended.
    this.follow.hidden = (ended || Boolean(this.attempt)) && !this.following;
    const needsTail = this.attempt ? this.tailFetchedIn === null
      : replica.state === 'Running' ? tailsDue : ended && this.tailFetchedIn !== replica.state;
    if (this.log.open && needsTail && !this.following) {
      this.fetchTail();
    }
  }

  async fetchTail() {
    if (this.replica.state === 'Pending' || this.following || this.followedToEnd) {
      return;
    }
    if (this.fetching) {
      this.fetchAgain = true; // the replica may have ended meanwhile: its last lines must not be missed
      return;
    }
    this.fetching = true;
    try {
      do {
        this.fetchAgain = false;
        const state = this.replica.state;
        const url = pageUrl('logs', this.logParams({ role: this.replica.role, index: this.replica.index, tail: LOG_LINES }));
        const text = await getText(url);
        if (this.following) return; // the followed log owns the box now
        this.tail.textContent = text || 'Nothing written yet.';
        this.tail.scrollTop = this.tail.scrollHeight;
        this.tailFetchedIn = state;
      } while (this.fetchAgain);
    } catch (failure) {
      this.tail.textContent = `Could not read the log: ${failure.message}`;
    } finally {
      this.fetching = false;
    }
  }
}
