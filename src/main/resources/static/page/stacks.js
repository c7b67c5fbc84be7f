// @ts-check
// The status page's Stacks section: the kept stack dumps of the job's trainers (GET …/stacks), one at a time, each
// rank side by side with the frames where the ranks differ marked; and a button that takes one now (POST …/stacks),
// for those who may cancel the job while it runs.
import { FINISHED_PHASES, el, getJson, send } from './common.js';
import { dumpLabel, sideBySide } from './stacks-model.js';

export class StacksSection {
  /**
   * @param {HTMLElement} section the page's #stacks section, which this fills
   * @param {URL} jobUrl          the job's URL (…/jobs/{name}?namespace=…)
   */
  constructor(section, jobUrl) {
    this.url = new URL(`${jobUrl.pathname}/stacks`, jobUrl);
    this.url.search = jobUrl.search;
    this.take = el('button', { className: 'action', text: 'Take stacks now', attrs: { type: 'button' } });
    this.take.addEventListener('click', () => this.takeNow());
    this.choice = el('select', { attrs: { 'aria-label': 'Which stack dump' } });
    this.choice.addEventListener('change', () => this.show());
    this.note = el('span', { className: 'action-note', attrs: { role: 'status' } });
    this.ranks = el('div', { className: 'stacks' });
    section.append(el('p', { className: 'filter' }, this.take, this.choice, this.note), this.ranks);
    this.dumps = [];
    this.seen = '';
  }

  /**
   * Shows the button where it would work, and reads the kept dumps again when the job may have a new one: its
   * phase, reason (a stall) or attempt changed.
   */
  update(status, allowed) {
    this.take.hidden = !allowed.cancel || FINISHED_PHASES.has(status.phase);
    const seen = `${status.phase}/${status.reason || ''}/${(status.attempts || []).length}`;
    if (seen !== this.seen) {
      this.seen = seen;
      this.refresh();
    }
  }

  async refresh() {
    try {
      this.dumps = (await getJson(this.url)).dumps;
    } catch (failure) {
      this.note.textContent = `Could not read the stacks: ${failure.message}`;
      return;
    }
    const chosen = this.choice.value;
    this.choice.replaceChildren(...this.dumps.map((dump, i) => el('option', { text: dumpLabel(dump), attrs: { value: String(i) } })));
    this.choice.hidden = this.dumps.length === 0;
    if (chosen && Number(chosen) < this.dumps.length) this.choice.value = chosen;
    this.note.textContent = this.dumps.length === 0 ? 'No stacks taken yet.' : '';
    this.show();
  }

  async takeNow() {
    this.take.disabled = true;
    this.note.textContent = 'Taking the stacks…';
    try {
      await send('POST', this.url);
      this.choice.value = '';
      await this.refresh();
      this.choice.value = '0';
      this.show();
    } catch (failure) {
      this.note.textContent = `${failure.title || 'Failed'}: ${failure.message}`;
    } finally {
      this.take.disabled = false;
    }
  }

  show() {
    const dump = this.dumps[Number(this.choice.value || 0)];
    if (!dump) {
      this.ranks.replaceChildren();
      return;
    }
    this.ranks.replaceChildren(...sideBySide(dump).map((replica) => el('section', { className: 'rank', attrs: { 'aria-label': replica.title } },
      el('h3', { className: 'replica-id', text: replica.title }),
      ...replica.notes.map((note) => el('p', { className: 'hint', text: note })),
      ...replica.threads.map((thread) => el('div', { className: 'thread' },
        el('p', { className: 'thread-title', text: thread.title }),
        el('ol', { className: 'frames' }, ...thread.frames.map((frame) => el('li', {
          className: frame.differs ? 'frame differs' : 'frame',
          attrs: frame.differs ? { title: 'Other ranks are somewhere else here' } : {},
        }, el('span', { className: 'function', text: frame.text }), ' ', el('span', { className: 'where', text: frame.where })))))))));
  }
}
