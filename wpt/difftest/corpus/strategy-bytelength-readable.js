// ReadableStream with ByteLengthQueuingStrategy: desiredSize counts bytes; pull stops once
// the byte budget is reached.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    log('pull', n, c.desiredSize);
    c.enqueue(new Uint8Array(n * 3));
    if (n === 4) c.close();
  },
}), new ByteLengthQueuingStrategy({ highWaterMark: 8 }));
(async () => {
  await delay(1);
  const r = rs.getReader();
  for (;;) {
    const x = await r.read();
    log('read', x.done, x.value && x.value.length);
    if (x.done) break;
  }
})();
