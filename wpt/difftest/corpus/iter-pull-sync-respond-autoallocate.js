// A byte source with autoAllocateChunkSize: the read next() starts runs pull() synchronously,
// which responds to the auto-allocated BYOB request (the chunk steps resolve nextPromise) and
// returns a thenable, whose then() runs before next()'s iterator result resolution reads `then`.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const rs = new ReadableStream(source('rs', {
  type: 'bytes',
  autoAllocateChunkSize: 4,
  pull(c) {
    const v = c.byobRequest.view;
    v[0] = 7;
    c.byobRequest.respond(1);
    return thenable('pull.then', undefined);
  },
}));
(async () => {
  await delay(0);
  const it = rs.values();
  watch('next0', it.next());
  watch('next1', it.next());
  log('sync end');
})();
