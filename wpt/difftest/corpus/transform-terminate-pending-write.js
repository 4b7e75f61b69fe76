// TransformStream: readable side's controller.terminate() from outside while writes are
// queued behind backpressure: the queued writes reject.
let tc;
const ts = new TransformStream(source('tr', {
  start(c) { tc = c; },
  transform(chunk, c) { c.enqueue(chunk); },
}));
const w = ts.writable.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
(async () => {
  await delay(1);
  tc.terminate();
  watch('closed', w.closed);
  watch('read', ts.readable.getReader().read());
})();
