// tee(): reading only branch A keeps pulling the source (branch B queues chunks without
// backpressure on the source); B then drains its queued chunks.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n === 3) c.close(); },
}));
const [a, b] = rs.tee();
const ra = a.getReader();
(async () => {
  for (;;) { const x = await ra.read(); log('a', x); if (x.done) break; }
  const rb = b.getReader();
  for (;;) { const x = await rb.read(); log('b', x); if (x.done) break; }
})();
