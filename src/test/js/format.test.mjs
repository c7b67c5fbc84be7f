// The pages' pure module (src/main/resources/static/page/format.js), loaded as the browser loads it: an ES
// module, here from its text (it imports nothing), so that no package.json has to be served beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const source = await readFile(new URL('../../main/resources/static/page/format.js', import.meta.url), 'utf8');
const { humanBytes, describeCounts, EventStreamParser } =
  await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);

test('memory is shown in human units', () => {
  assert.equal(humanBytes('24683784Ki'), '23.5 GiB');
  assert.equal(humanBytes('1Gi'), '1 GiB');
  assert.equal(humanBytes('512Mi'), '512 MiB');
  assert.equal(humanBytes('1536Mi'), '1.5 GiB');
  assert.equal(humanBytes('2G'), '1.9 GiB');
  assert.equal(humanBytes('100Ti'), '100 TiB');
  assert.equal(humanBytes('not a quantity'), 'not a quantity');
  assert.equal(humanBytes(undefined), '');
});

test('role counts name each state once, stopped included, and a role the job lacks is left out', () => {
  assert.equal(describeCounts({ desired: 2, pending: 0, running: 0, succeeded: 0, failed: 0, stopped: 2 }),
    '2 stopped (of 2)');
  assert.equal(describeCounts({ desired: 3, pending: 1, running: 2, succeeded: 0, failed: 0, stopped: 0 }),
    '1 pending, 2 running (of 3)');
  assert.equal(describeCounts({ desired: 0, pending: 0, running: 0, succeeded: 0, failed: 0, stopped: 0 }), null);
  assert.equal(describeCounts({ desired: 2, pending: 0, running: 0, succeeded: 0, failed: 0, stopped: 0 }),
    'none yet (of 2)');
  // from a service that does not count stopped replicas yet
  assert.equal(describeCounts({ desired: 2, pending: 0, running: 0, succeeded: 1, failed: 0 }),
    '1 succeeded, 1 stopped (of 2)');
});

test('events come out whole, however the stream is cut', () => {
  const stream = 'event: status\ndata: {"phase":"Running"}\n\n: keep-alive\n\nevent: metrics\r\ndata: a\r\ndata: b\r\n\r\nevent: end\ndata: {}\n\n';
  for (const size of [1, 3, 7, stream.length]) {
    const parser = new EventStreamParser();
    const events = [];
    for (let i = 0; i < stream.length; i += size) events.push(...parser.push(stream.slice(i, i + size)));
    assert.deepEqual(events, [
      { name: 'status', data: '{"phase":"Running"}' },
      { name: 'metrics', data: 'a\nb' },
      { name: 'end', data: '{}' },
    ], `pieces of ${size}`);
  }
});
