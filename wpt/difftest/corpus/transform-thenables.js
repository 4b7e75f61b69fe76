// TransformStream: transformer start/transform/flush return thenables.
const ts = new TransformStream(source('tr', {
  start() { return thenable('startT', 0); },
  transform(ch, c) { c.enqueue(ch); return thenable('transformT', ch); },
  flush() { return thenable('flushT', 0); },
}), undefined, { highWaterMark: 2 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write('a'));
watch('close', w.close());
watch('r1', r.read());
watch('r2', r.read());
