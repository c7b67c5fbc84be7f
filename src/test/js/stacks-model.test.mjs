// The status page's stacks model (src/main/resources/static/page/stacks-model.js), loaded as format.test.mjs
// loads format.js: from its text, as an ES module that imports nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const source = await readFile(new URL('../../main/resources/static/page/stacks-model.js', import.meta.url), 'utf8');
const { sideBySide, dumpLabel, attemptChoices } =
  await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);

const frame = (fn, line) => ({ function: fn, file: 'train.py', line });
/** One rank: a Python process whose threads are given innermost frame first, as py-spy lists them. */
const rank = (index, threads, extra = {}) => ({
  replica: `trainer-${index}`, role: 'trainer', index, pid: 1000 + index, namespace_pid: 2,
  processes: [{ pid: 1100 + index, namespace_pid: 3, command: 'python3 train.py', threads }], ...extra,
});
const main = (...frames) => ({ name: 'MainThread', active: false, owns_gil: false, frames });

test('frames where the ranks are somewhere else are marked, outermost first; the shared start is not', () => {
  const dump = {
    attempt: 0, taken_at: '2026-12-07T08:00:00.123Z', trigger: 'stall', replicas: [
      rank(0, [main(frame('wait', 327), frame('wait_for_peer', 4), frame('<module>', 9))]),
      rank(1, [main(frame('accept', 293), frame('accept_from_peer', 6), frame('<module>', 11))]),
    ],
  };

  const [zero, one] = sideBySide(dump);

  assert.equal(zero.title, 'trainer-0 (pid 1000, 2 in its sandbox)');
  assert.deepEqual(zero.threads[0].frames.map((f) => [f.text, f.differs]),
    [['<module>', true], ['wait_for_peer', true], ['wait', true]], 'they part at the module\'s line already');
  assert.deepEqual(one.threads[0].frames.map((f) => f.text), ['<module>', 'accept_from_peer', 'accept']);
  assert.equal(one.threads[0].frames[1].where, 'train.py:6');
});

test('a shared path is unmarked down to where one rank goes deeper, and a thread only one rank has is marked', () => {
  const shared = [frame('train', 20), frame('<module>', 30)];
  const dump = {
    attempt: 1, taken_at: '2026-12-07T08:00:00Z', trigger: 'requested', replicas: [
      rank(0, [main(frame('all_reduce', 88), ...shared), { name: 'loader', active: true, owns_gil: true, frames: [frame('read', 5)] }]),
      rank(1, [main(...shared)]),
    ],
  };

  const [zero, one] = sideBySide(dump);

  assert.deepEqual(zero.threads[0].frames.map((f) => f.differs), [false, false, true]);
  assert.deepEqual(one.threads[0].frames.map((f) => f.differs), [false, false]);
  assert.equal(zero.threads[1].title, 'loader, running, holds the GIL');
  assert.deepEqual(zero.threads[1].frames.map((f) => f.differs), [true], 'no other rank has this thread');
});

test('a rank with nothing to dump says why; a single rank differs from nobody', () => {
  const lone = sideBySide({ attempt: 0, taken_at: '2026-12-07T08:00:00Z', trigger: 'requested',
    replicas: [rank(0, [main(frame('wait', 1))])] });
  assert.deepEqual(lone[0].threads[0].frames.map((f) => f.differs), [false]);

  const broken = sideBySide({ attempt: 0, taken_at: '2026-12-07T08:00:00Z', trigger: 'requested', replicas: [
    { replica: 'trainer-0', role: 'trainer', index: 0, processes: [], error: 'no Python process runs in it now' }] });
  assert.equal(broken[0].title, 'trainer-0');
  assert.deepEqual(broken[0].notes, ['no Python process runs in it now']);
});

test('dumps are named by attempt from 0, time and trigger', () => {
  assert.equal(dumpLabel({ attempt: 0, taken_at: '2026-12-07T08:00:01.5Z', trigger: 'stall' }),
    'Attempt 0, 2026-12-07 08:00:01 UTC, when the stall was seen');
  assert.equal(dumpLabel({ attempt: 2, taken_at: '2026-12-07T08:00:01Z', trigger: 'requested' }),
    'Attempt 2, 2026-12-07 08:00:01 UTC, on request');
});

test('attempts to pick logs from are numbered from 0, the last one first and meaning the current logs', () => {
  assert.deepEqual(attemptChoices([{ number: 0 }]), [], 'one attempt: nothing to pick');
  assert.deepEqual(attemptChoices([
    { number: 0, reason: 'TrainerFailed', finished_at: '2026-12-07T08:00:00Z' },
    { number: 1 },
  ]), [
    { value: '', label: 'Attempt 1 (the last)' },
    { value: '0', label: 'Attempt 0: TrainerFailed' },
  ]);
});
