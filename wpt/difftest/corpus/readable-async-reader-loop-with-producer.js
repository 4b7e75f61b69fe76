// ReadableStream: an async producer (timers + microtasks) and an async consumer loop with
// highWaterMark 2; pull is a no-op and enqueues come from outside; full interleaving.
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  pull(c) { log('pull desiredSize', c.desiredSize); },
}), { highWaterMark: 2 });
(async () => {
  for (let i = 0; i < 5; i++) {
    if (i % 2) await delay(1); else await null;
    log('enqueue', i, ctrl.desiredSize);
    ctrl.enqueue(i);
  }
  ctrl.close();
})();
(async () => {
  const r = rs.getReader();
  for (;;) {
    const x = await r.read();
    log('read', x);
    if (x.done) break;
    await null;
  }
})();
