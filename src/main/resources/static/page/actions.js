// @ts-check
// Cancel and delete buttons, for the status page and each row of the list. Each asks first, in
// place ("Cancel job x? … Yes, cancel / No"), and is shown only where the caller may do it
// (GET …/actions, which also says whether the caller may run it again; permissions are per namespace, so one answer serves a whole list).
import { el, getJson, send } from './common.js';

const VERBS = {
  cancel: { button: 'Cancel', question: 'Cancel job %s? Its replicas are stopped; the job is kept as Cancelled.', yes: 'Yes, cancel it' },
  delete: { button: 'Delete', question: 'Delete job %s? It and its logs are removed for good.', yes: 'Yes, delete it' },
};

/** What the caller may do to this job, or nothing at all when that cannot be read. */
export async function allowedActions(jobUrl) {
  const actions = new URL(`${jobUrl.pathname}/actions`, jobUrl);
  actions.search = jobUrl.search;
  try {
    return await getJson(actions);
  } catch {
    return { cancel: false, delete: false, rerun: false };
  }
}

export class ActionButtons {
  /**
   * @param jobName  shown in the question
   * @param jobUrl   the job's URL (…/jobs/{name}?namespace=…): DELETE there, POST to …/cancel
   * @param onDone   called with 'cancel' or 'delete' once the service has done it
   */
  constructor(jobName, jobUrl, onDone) {
    this.jobName = jobName;
    this.jobUrl = jobUrl;
    this.onDone = onDone;
    this.element = el('div', { className: 'actions', attrs: { 'data-job': jobName } });
    this.allowed = { cancel: false, delete: false };
    this.finished = true;
    this.asking = null;
  }

  /** Whether a question is open: a refresh must not wipe it away. */
  get busy() {
    return this.asking !== null;
  }

  update(allowed, finished) {
    this.allowed = allowed;
    this.finished = finished;
    if (!this.busy) this.showButtons();
  }

  showButtons(message) {
    this.asking = null;
    const buttons = [];
    if (this.allowed.cancel && !this.finished) buttons.push(this.button('cancel'));
    if (this.allowed.delete) buttons.push(this.button('delete'));
    const note = message ? [el('span', { className: 'action-note', text: message, attrs: { role: 'status' } })] : [];
    this.element.replaceChildren(...buttons, ...note);
  }

  button(verb) {
    const button = el('button', {
      className: `action action-${verb}`, text: VERBS[verb].button,
      attrs: { type: 'button', 'aria-label': `${VERBS[verb].button} job ${this.jobName}` },
    });
    button.addEventListener('click', () => this.ask(verb));
    return button;
  }

  ask(verb) {
    this.asking = verb;
    const yes = el('button', { className: `action action-${verb} action-confirm`, text: VERBS[verb].yes, attrs: { type: 'button' } });
    const no = el('button', { className: 'action action-keep', text: 'No', attrs: { type: 'button' } });
    yes.addEventListener('click', () => this.act(verb, yes, no));
    no.addEventListener('click', () => this.showButtons());
    this.element.replaceChildren(
      el('span', { className: 'action-question', text: VERBS[verb].question.replace('%s', this.jobName), attrs: { role: 'alert' } }),
      yes, no);
    no.focus();
  }

  async act(verb, ...buttons) {
    buttons.forEach((button) => { button.disabled = true; });
    const url = verb === 'cancel' ? new URL(`${this.jobUrl.pathname}/cancel${this.jobUrl.search}`, this.jobUrl) : this.jobUrl;
    try {
      await send(verb === 'cancel' ? 'POST' : 'DELETE', url);
    } catch (failure) {
      this.showButtons(`Could not ${verb}: ${failure.message || failure.title}`);
      return;
    }
    this.showButtons(verb === 'cancel' ? 'Cancelled.' : 'Deleted.');
    this.onDone(verb);
  }
}
