// The charts' pure module (src/main/resources/static/page/chart-model.js), loaded as format.test.mjs
// loads format.js: from its text, as an ES module that imports nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const source = await readFile(new URL('../../main/resources/static/page/chart-model.js', import.meta.url), 'utf8');
const { attemptStarts, fitsLogScale, linearAxis, logAxis } =
  await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);

const point = (step, attempt) => ({ step, value: 1, attempt });

test('each attempt after the first begins at the lowest step any trainer reported in it', () => {
  const starts = attemptStarts([
    [point(1, 0), point(2, 0), point(5, 1), point(9, 2)],
    [point(1, 0), point(4, 1), point(8, 1)],
  ]);

  assert.deepEqual(starts, [{ attempt: 1, step: 4 }, { attempt: 2, step: 9 }]);
});

test('a job that never restarted, or points kept without an attempt, get no mark', () => {
  assert.deepEqual(attemptStarts([[point(1, 0), point(2, 0)]]), []);
  assert.deepEqual(attemptStarts([[{ step: 1, value: 1 }, { step: 2, value: 2 }]]), []);
});

test('a chart whose first attempt charted nothing marks from the first it did chart on', () => {
  assert.deepEqual(attemptStarts([[point(3, 1), point(6, 2)]]), [{ attempt: 2, step: 6 }]);
});

test('only values above zero go on a logarithmic axis', () => {
  assert.equal(fitsLogScale([70, 0.3]), true);
  assert.equal(fitsLogScale([70, 0]), false);
  assert.equal(fitsLogScale([-1, 2]), false);
  assert.equal(fitsLogScale([]), false);
});

test('a loss from 70 to 0.3 spans whole decades, a tick at each, and sits apart on the log axis', () => {
  const axis = logAxis(0.3, 70);

  assert.deepEqual([axis.min, axis.max], [0.1, 100]);
  assert.deepEqual(axis.ticks, [0.1, 1, 10, 100]);
  assert.equal(axis.at(1), 1 / 3);
  // On a linear axis 0.3 and 1 are a hundredth of the height apart; on this one over a sixth.
  assert.ok(axis.at(1) - axis.at(0.3) > 1 / 6);
});

test('values within a decade or two get ticks at 2 and 5 times each power of ten', () => {
  assert.deepEqual(logAxis(2, 8).ticks, [1, 2, 5, 10]);
  assert.deepEqual(logAxis(1, 1).ticks, [1, 2, 5, 10]);
});

test('a linear axis runs on round numbers around the values, and places them between 0 and 1', () => {
  const axis = linearAxis(0.3, 70);

  assert.deepEqual([axis.min, axis.max], [0, 80]);
  assert.deepEqual(axis.ticks, [0, 20, 40, 60, 80]);
  assert.equal(axis.at(40), 0.5);
  assert.deepEqual(linearAxis(5, 5).ticks.length > 1, true);
});
