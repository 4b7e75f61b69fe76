// pipeThrough a transform with timer-driven enqueues; the transform's readable side is read
// by hand.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const out = rs.pipeThrough(new TransformStream(source('tr', {
  transform(ch, c) { c.enqueue(ch.toUpperCase()); },
  flush() { log('flush'); },
})));
const r = out.getReader();
(async () => {
  watch('r1', r.read());
  await delay(1);
  ctrl.enqueue('x');
  await delay(1);
  watch('r2', r.read());
  ctrl.close();
  watch('r3', r.read());
})();
