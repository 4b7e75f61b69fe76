// ReadableStream: pull enqueues three chunks at once (past the hwm); pull is not called again
// until the queue drains below hwm.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    for (let i = 0; i < 3; i++) c.enqueue(n * 10 + i);
    log('desiredSize', c.desiredSize);
    if (n === 2) c.close();
  },
}), { highWaterMark: 2 });
(async () => {
  await delay(1);
  const r = rs.getReader();
  for (let i = 0; i < 7; i++) log('read', await r.read());
})();
