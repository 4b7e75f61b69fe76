// WritableStreamDefaultWriter: ready is replaced by a new promise when backpressure starts;
// identity of ready before/after; hwm 1 with a slow sink.
const ws = new WritableStream({ write() { return delay(1); } }, { highWaterMark: 1 });
const w = ws.getWriter();
const r0 = w.ready;
watch('r0', r0);
watch('w1', w.write(1));
const r1 = w.ready;
log('same after write', r0 === r1);
watch('r1', r1);
(async () => {
  await r1;
  log('same after resolve', r1 === w.ready);
  watch('w2', w.write(2));
  watch('w3', w.write(3));
  log('desiredSize', w.desiredSize);
  watch('r2', w.ready);
})();
