// TransformStream: enqueue inside transform makes the readable side full (hwm 0): the writable
// side's ready goes pending until a read happens.
const ts = new TransformStream(source('tr', {
  transform(chunk, c) { c.enqueue(chunk); log('desiredSize', c.desiredSize); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('ready0', w.ready);
(async () => {
  watch('r1', r.read());
  await delay(1);
  watch('w1', w.write('a'));
  watch('w2', w.write('b'));
  watch('ready1', w.ready);
  log('desiredSize', w.desiredSize);
  await delay(1);
  watch('r2', r.read());
})();
