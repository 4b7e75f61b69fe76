// tee() of a byte stream: branch A cancelled while the source's pull (started by B's BYOB read)
// is pending; the pull then responds; B receives the bytes, A stays closed.
let finish;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { const req = c.byobRequest; finish = () => { req.view[0] = 42; req.respond(1); }; },
  cancel(r) { log('src cancel', r); },
}));
const [a, b] = rs.tee();
const rb = b.getReader({ mode: 'byob' });
watch('b1', rb.read(new Uint8Array(2)));
(async () => {
  await delay(1);
  watch('a.cancel', a.cancel('A'));
  await delay(1);
  finish();
  await delay(1);
  watch('b.cancel', rb.cancel('B'));
})();
