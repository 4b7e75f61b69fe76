// Async iteration of a byte stream with autoAllocateChunkSize: return() while a pull is
// pending; the pull later responds; cancel happens after the pending next settles.
let req;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  autoAllocateChunkSize: 2,
  pull(c) { req = c.byobRequest; },
  cancel(r) { log('cancel', r); },
}));
const it = rs.values();
watch('next', it.next());
watch('return', it.return('R'));
(async () => {
  await delay(1);
  req.view[0] = 5;
  req.respond(1);
})();
