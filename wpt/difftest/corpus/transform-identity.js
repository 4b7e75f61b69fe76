// TransformStream with no transformer: identity; write/read interleaving and backpressure
// (writable hwm 1, readable hwm 0): ready resolves only when the readable side reads.
const ts = new TransformStream();
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
log('desiredSize', w.desiredSize);
watch('ready0', w.ready);
watch('w1', w.write('a'));
log('desiredSize', w.desiredSize);
watch('w2', w.write('b'));
(async () => {
  await delay(1);
  watch('r1', r.read());
  watch('r2', r.read());
  watch('close', w.close());
  watch('r3', r.read());
})();
