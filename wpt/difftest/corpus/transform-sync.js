// TransformStream: synchronous transform() enqueues twice per chunk; flush enqueues a final
// chunk; desiredSize of the readable side is logged inside transform.
const ts = new TransformStream(source('tr', {
  start(c) { log('start desiredSize', c.desiredSize); },
  transform(chunk, c) {
    c.enqueue(chunk + '1');
    c.enqueue(chunk + '2');
    log('desiredSize', c.desiredSize);
  },
  flush(c) { c.enqueue('end'); },
}), undefined, { highWaterMark: 4 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write('a'));
watch('w2', w.write('b'));
watch('close', w.close());
(async () => {
  for (;;) {
    const x = await r.read();
    log('read', x);
    if (x.done) break;
  }
})();
