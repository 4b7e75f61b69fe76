// An identity TransformStream (no transform(): the default transform enqueues and returns a
// promise resolved with undefined) written by a writer with a reader reading late: each
// write's settlement tick against probes, the backpressure flips and a close.
const ts = new TransformStream({}, { highWaterMark: 4 }, { highWaterMark: 2 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
for (const x of [1, 2, 3, 4]) watch('write ' + x, w.write(x));
watch('ready', w.ready);
log('desiredSize', w.desiredSize);
let k = 0;
const probe = () => { log('probe', ++k); if (k < 6) Promise.resolve().then(probe); };
Promise.resolve().then(probe);
(async () => {
  await null;
  log('read', await r.read());
  log('desiredSize after read', w.desiredSize);
  watch('write 5', w.write(5));
  watch('close', w.close());
  for (;;) {
    const x = await r.read();
    log('read', x);
    if (x.done) break;
  }
})();
