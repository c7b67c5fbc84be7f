// @ts-check
// "Run again" on the status page: a new job from this one's request (POST …/rerun), with the
// changes a person most often makes (its name, the trainers, max_run_time) in a small form; the
// service names it <name>-2, -3, ... unless a name is given, and checks it as it checks a submit.
import { el, send } from './common.js';

export class RerunForm {
  /**
   * @param section the page's (hidden) section the button and form go in
   * @param jobUrl  the job's URL (…/jobs/{name}?namespace=…); the rerun is POSTed to …/rerun
   * @param plan    the job's plan, for the values the form starts with
   */
  constructor(section, jobUrl, plan) {
    this.section = section;
    this.jobUrl = jobUrl;
    this.plan = plan;
  }

  /** Shows the button where the caller may submit in the job's namespace. */
  show(allowed) {
    this.section.hidden = !allowed;
    if (allowed) this.showButton();
  }

  showButton(message) {
    const button = el('button', { className: 'action action-rerun', text: 'Run again…', attrs: { type: 'button' } });
    button.addEventListener('click', () => this.showForm());
    const note = message ? [el('span', { className: 'action-note', text: message, attrs: { role: 'alert' } })] : [];
    this.section.replaceChildren(button, ...note);
  }

  showForm() {
    const name = field('rerun-name', 'Name', { type: 'text', placeholder: 'the next free one' });
    const trainers = field('rerun-trainers', 'Trainers', { type: 'number', min: '1', value: this.plan.trainers.count });
    const maxRunTime = field('rerun-max-run-time', 'Max run time', {
      type: 'text', placeholder: 'none', value: this.plan.spec.max_run_time || '',
    });
    const go = el('button', { className: 'action action-confirm', text: 'Run again', attrs: { type: 'submit' } });
    const no = el('button', { className: 'action action-keep', text: 'Cancel', attrs: { type: 'button' } });
    const form = el('form', { className: 'rerun-form', attrs: { 'aria-label': 'Run again' } },
      ...name.parts, ...trainers.parts, ...maxRunTime.parts, go, no);
    no.addEventListener('click', () => this.showButton());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit(changes(name.input, trainers.input, maxRunTime.input, this.plan), go, no);
    });
    this.section.replaceChildren(form);
    name.input.focus();
  }

  async submit(body, ...buttons) {
    buttons.forEach((button) => { button.disabled = true; });
    const url = new URL(`${this.jobUrl.pathname}/rerun${this.jobUrl.search}`, this.jobUrl);
    let created;
    try {
      created = await (await send('POST', url, body)).json();
    } catch (failure) {
      this.showButton(`Could not run it again: ${failure.title}${failure.message ? ` (${failure.message})` : ''}`);
      return;
    }
    window.location.assign(created.status_url);
  }
}

/** Only what the person changed: everything else is the earlier job's. */
function changes(name, trainers, maxRunTime, plan) {
  const body = {};
  if (name.value.trim()) body.name = name.value.trim();
  if (Number(trainers.value) !== plan.trainers.count) body.trainers = Number(trainers.value);
  if (maxRunTime.value.trim() !== (plan.spec.max_run_time || '')) body.max_run_time = maxRunTime.value.trim() || null;
  return body;
}

function field(id, label, attrs) {
  const input = el('input', { attrs: { id, name: id, ...attrs } });
  return { input, parts: [el('label', { text: label, attrs: { for: id } }), input] };
}
