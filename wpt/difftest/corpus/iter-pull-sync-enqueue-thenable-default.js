// Async iterator next() whose read runs a default source's pull() synchronously: pull enqueues
// into the pending read (the chunk steps resolve nextPromise) and returns a thenable. The
// pull-result NewPromiseResolveThenableJob is queued inside the read, before WebIDL's next()
// reacts to nextPromise, so the thenable's then() runs before the iterator result resolution
// reads `then`.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const rs = new ReadableStream(source('rs', {
  pull(c) { c.enqueue('a'); return thenable('pull.then', undefined); },
}), { highWaterMark: 0 });
(async () => {
  await delay(0);
  const it = rs.values();
  watch('next0', it.next());
  watch('next1', it.next());
  log('sync end');
})();
