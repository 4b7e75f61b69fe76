// TransformStream backpressure: readable hwm 1; the second transform is not called until the
// readable side is read.
const ts = new TransformStream(source('tr', {
  transform(chunk, c) { c.enqueue(chunk); log('desiredSize', c.desiredSize); },
}), { highWaterMark: 3 }, { highWaterMark: 1 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('w3', w.write(3));
log('writer desiredSize', w.desiredSize);
(async () => {
  await delay(1);
  log('reading');
  watch('r1', r.read());
  await delay(1);
  watch('r2', r.read());
  watch('r3', r.read());
})();
