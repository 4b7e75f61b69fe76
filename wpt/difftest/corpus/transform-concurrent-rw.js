// TransformStream: an async writer loop and an async reader loop run concurrently with a
// transform that enqueues two chunks per input; full interleaving logged.
const ts = new TransformStream(source('tr', {
  transform(ch, c) { c.enqueue(ch); c.enqueue(-ch); },
}), { highWaterMark: 1 }, { highWaterMark: 1 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
(async () => {
  for (let i = 1; i <= 3; i++) {
    await w.ready;
    log('writing', i, w.desiredSize);
    w.write(i).then(() => log('wrote', i));
  }
  await w.close();
  log('writer closed');
})();
(async () => {
  for (;;) {
    const x = await r.read();
    log('read', x);
    if (x.done) break;
  }
})();
