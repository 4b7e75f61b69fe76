// ReadableByteStream with highWaterMark 4: start-time pull fills the queue; desiredSize in
// bytes; no pull once full.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    log('desiredSize', c.desiredSize);
    c.enqueue(new Uint8Array(3));
    if (n === 3) c.close();
  },
}), { highWaterMark: 4 });
(async () => {
  await delay(1);
  const r = rs.getReader();
  for (;;) { const x = await r.read(); log('read', x.done, x.value && x.value.byteLength); if (x.done) break; }
})();
