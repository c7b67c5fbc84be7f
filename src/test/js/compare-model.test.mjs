// The compare page's pure module (src/main/resources/static/page/compare-model.js), loaded as format.test.mjs
// loads format.js: from its text, as an ES module that imports nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const source = await readFile(new URL('../../main/resources/static/page/compare-model.js', import.meta.url), 'utf8');
const { overlay, runsTable, jobNames } =
  await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);

const point = (step, value, time) => ({ step, value, time });

test('each metric overlays one series per run, its first trainer, timed from the run\'s start', () => {
  const charts = overlay([
    {
      name: 'b', startedAt: '2026-12-07T10:00:00Z',
      metrics: {
        loss: {
          'trainer-10': [point(0, 9, '2026-12-07T10:00:01Z')],
          'trainer-2': [point(0, 2, '2026-12-07T10:00:02Z'), point(1, 1, '2026-12-07T10:00:04Z')],
        },
      },
    },
    {
      name: 'a',
      metrics: { loss: { 'trainer-0': [point(0, 3, '2026-12-07T12:00:00Z')] }, acc: { 'trainer-0': [] } },
    },
  ]);

  assert.deepEqual([...charts.keys()], ['loss'], 'a metric no run has points of is no chart');
  const loss = charts.get('loss');
  assert.deepEqual(loss.get('b'), [{ step: 0, value: 2, seconds: 2 }, { step: 1, value: 1, seconds: 4 }]);
  assert.deepEqual(loss.get('a'), [{ step: 0, value: 3, seconds: 0 }], 'without started_at: from its first point');
});

test('the runs table shows parameters, each metric\'s last and the objective\'s best, a stopped trial as such', () => {
  const table = runsTable({
    parameters: ['lr'],
    metrics: ['acc', 'loss'],
    objective: { metric: 'loss' },
    runs: [
      { name: 't1', phase: 'Succeeded', parameters: { lr: 0.01 },
        metrics: { loss: { last: 0.5, last_step: 9, min: 0.25, max: 2, best: 0.25 }, acc: { last: 0.9, last_step: 9, min: 0.1, max: 0.9 } } },
      { name: 't2', phase: 'Cancelled', reason: 'EarlyStopped', parameters: { lr: 'high' }, metrics: {} },
    ],
  });

  assert.deepEqual(table.header, ['Run', 'Phase', 'lr', 'acc last', 'acc min … max', 'loss last', 'loss best']);
  assert.deepEqual(table.rows[0], ['t1', 'Succeeded', '0.01', '0.9 (step 9)', '0.1 … 0.9', '0.5 (step 9)', '0.25']);
  assert.deepEqual(table.rows[1], ['t2', 'Stopped early', 'high', '', '', '', '']);
});

test('typed job names are split on commas and spaces and kept once, in order', () => {
  assert.deepEqual(jobNames(' c, a  b,,a ', ['a']), ['a', 'c', 'b']);
  assert.deepEqual(jobNames(''), []);
});
