// pull() enqueues a thenable chunk into the read next() starts: "resolve promise with chunk"
// reads the chunk's `then` inside the read and queues its NewPromiseResolveThenableJob there,
// before the pull result's thenable job and before next() reacts to nextPromise.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const rs = new ReadableStream(source('rs', {
  pull(c) { c.enqueue(thenable('chunk.then', 'x')); return thenable('pull.then', undefined); },
}), { highWaterMark: 0 });
(async () => {
  await delay(0);
  const it = rs.values();
  watch('next0', it.next());
  watch('next1', it.next());
  log('sync end');
})();
