// A default source's pull() enqueues synchronously into the read that next() starts and returns
// undefined; the enqueue asks for another pull (pullAgain). The pull promise's "upon
// fulfillment" reaction is queued inside the read, before next() reacts to nextPromise, so the
// second pull() runs before the iterator result resolution reads `then`.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
let n = 0;
const rs = new ReadableStream(source('rs', {
  pull(c) { n++; if (n > 1 && n < 5) c.enqueue(n); },
}));
const it = rs.values();
(async () => {
  await delay(0);
  watch('next0', it.next());
  watch('next1', it.next());
  log('sync end');
})();
