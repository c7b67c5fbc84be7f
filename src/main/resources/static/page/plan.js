// @ts-check
// The plan part of the status page: what each role gets, the job's totals, what runs, and why.
import { el, labelled } from './common.js';

/** An element of the page by its id, as whatever element the page's HTML makes it. @param {string} id @returns {any} */
const $ = (id) => document.getElementById(id);

export function renderPlan(plan, warnings) {
  renderResources(plan);
  renderSpec(plan, warnings);
  renderDerivations(plan.derivations);
}

function renderResources(plan) {
  const table = $('resources');
  const roleRow = (title, role) => resourceRow(el('th', { text: title, attrs: { scope: 'row' } }),
    role.count, role.per_replica);
  const rows = plan.pservers.count > 0 ? [roleRow('Pservers, each', plan.pservers)] : [];
  table.tBodies[0].replaceChildren(...rows, roleRow('Trainers, each', plan.trainers));
  table.tFoot.replaceChildren(resourceRow(el('th', { text: 'Whole job', attrs: { scope: 'row' } }),
    plan.pservers.count + plan.trainers.count, plan.totals));
}

function resourceRow(header, count, resources) {
  return el('tr', {}, header,
    labelled('Replicas', count), labelled('CPU', resources.cpu),
    labelled('GPUs', resources.gpu), labelled('Memory', resources.memory));
}

function renderSpec(plan, warnings) {
  /** @type {[string, Node][]} */
  const facts = [
    ['Mode', document.createTextNode(plan.spec.mode === 'collective'
      ? 'collective: trainers only, gradients all-reduced' : 'ps: pservers and trainers')],
    ['Image', code(plan.image)],
    ['Trainer entry point', code(plan.trainers.entry_point)],
  ];
  if (plan.pservers.count > 0 && plan.pservers.entry_point !== plan.trainers.entry_point) {
    facts.push(['Pserver entry point', code(plan.pservers.entry_point)]);
  }
  const ports = plan.ports;
  const last = ports.first + ports.num + ports.num_for_sparse - 1;
  if (plan.pservers.count === 0) {
    facts.push(['Trainer port', document.createTextNode(`${ports.first} (rank 0 serves the store on it)`)]);
  } else {
    facts.push(['Pserver ports', document.createTextNode(
      `${ports.first === last ? ports.first : `${ports.first}–${last}`} (${ports.num} dense, ${ports.num_for_sparse} sparse)`)]);
  }
  facts.push(['Uses GPUs', document.createTextNode(plan.use_gpu ? 'yes' : 'no')]);
  const labels = Object.entries(plan.spec.labels || {});
  facts.push(['Labels', labels.length === 0 ? document.createTextNode('none')
    : el('span', { className: 'chips' }, ...labels.map(([key, value]) => code(`${key}=${value}`)))]);
  if (warnings.length > 0) {
    facts.push(['Warnings', el('ul', {}, ...warnings.map((warning) => el('li', { text: warning })))]);
  }
  $('spec').replaceChildren(...facts.flatMap(([term, value]) => [el('dt', { text: term }), el('dd', {}, value)]));
}

function renderDerivations(derivations) {
  $('derivations').querySelector('tbody').replaceChildren(...derivations.map((d) => el('tr', {},
    el('th', { text: d.field, attrs: { scope: 'row' } }), labelled('Value', d.value), labelled('Rule', d.rule))));
}

function code(text) {
  return el('code', { text });
}
