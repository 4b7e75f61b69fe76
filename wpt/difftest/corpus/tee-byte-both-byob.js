// tee() of a byte stream with BYOB readers on both branches, reading different sizes; the
// source responds to the branch's byobRequest.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const req = c.byobRequest;
    log('pull', n, req && req.view);
    if (req) { req.view[0] = n; req.respond(1); } else c.enqueue(new Uint8Array([n]));
    if (n === 3) c.close();
  },
}));
const [a, b] = rs.tee();
const ra = a.getReader({ mode: 'byob' });
const rb = b.getReader({ mode: 'byob' });
(async () => {
  watch('a1', ra.read(new Uint8Array(2)));
  watch('b1', rb.read(new Uint8Array(1)));
  await delay(1);
  watch('b2', rb.read(new Uint8Array(4)));
  watch('a2', ra.read(new Uint8Array(4)));
  await delay(1);
  watch('a3', ra.read(new Uint8Array(4)));
  watch('b3', rb.read(new Uint8Array(4)));
  watch('a4', ra.read(new Uint8Array(4)));
  watch('b4', rb.read(new Uint8Array(4)));
})();
