// ReadableStream: desiredSize tracks the queue with highWaterMark 3; pull is called after
// start until the queue is full, then again as a reader drains it.
let n = 0;
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  pull(c) {
    n++;
    log('pull', n, 'desiredSize', c.desiredSize);
    c.enqueue(n);
    if (n === 6) c.close();
  },
}), { highWaterMark: 3 });
(async () => {
  await delay(1);
  log('desiredSize', ctrl.desiredSize);
  const r = rs.getReader();
  for (;;) {
    const res = await r.read();
    log('got', res, ctrl.desiredSize);
    if (res.done) break;
  }
})();
