// Writes into a TransformStream whose transform() settles synchronously while the readable
// side has room (no backpressure): the tick each write settles on, the writer's ready and
// desiredSize, interleaved with reads, a throwing transform and one returning a promise
// (the write processing's reaction to "the result of reacting to transformPromise").
let n = 0;
const ts = new TransformStream(source('tr', {
  transform(chunk, c) {
    n++;
    if (chunk === 'throw') throw new Error('boom');
    c.enqueue(chunk + '!');
    if (chunk === 'async') return Promise.resolve('v');
  },
}), { highWaterMark: 8 }, { highWaterMark: 3 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
log('desiredSize', w.desiredSize);
watch('w1', w.write('a'));
watch('w2', w.write('b'));
watch('ready', w.ready);
watch('w3', w.write('async'));
watch('w4', w.write('c'));
log('desiredSize after', w.desiredSize);
Promise.resolve().then(() => log('probe 1')).then(() => log('probe 2')).then(() => log('probe 3'));
(async () => {
  for (let i = 0; i < 3; i++) log('read', await r.read());
  watch('w5', w.write('d'));
  watch('w6', w.write('throw'));
  watch('w7', w.write('e'));
  watch('closed', w.closed);
  log('read', await r.read());
  watch('read after error', r.read());
})();
