// TransformStream: terminate() called in start(); writes reject; readable reads done.
const ts = new TransformStream(source('tr', {
  start(c) { c.terminate(); },
  transform() { log('transform must not run'); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('r1', r.read());
watch('w1', w.write('a'));
watch('w.closed', w.closed);
