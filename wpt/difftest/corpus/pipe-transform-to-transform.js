// pipeTo from one TransformStream's readable into another's writable; both driven by hand;
// timer-separated writes.
const t1 = new TransformStream(source('t1', { transform(ch, c) { c.enqueue(ch + 1); } }));
const t2 = new TransformStream(source('t2', { transform(ch, c) { c.enqueue(ch * 2); } }));
watch('pipe', t1.readable.pipeTo(t2.writable));
const w = t1.writable.getWriter();
const r = t2.readable.getReader();
(async () => {
  watch('r1', r.read());
  await delay(1);
  watch('w1', w.write(1));
  await delay(1);
  watch('r2', r.read());
  watch('w2', w.write(5));
  await delay(1);
  watch('close', w.close());
  watch('r3', r.read());
})();
