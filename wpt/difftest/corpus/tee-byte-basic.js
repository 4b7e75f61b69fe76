// tee() of a byte stream: both branches are byte streams; chunks are cloned for the second
// branch; BYOB read on one branch, default read on the other.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    log('pull', n, c.byobRequest && c.byobRequest.view);
    c.enqueue(new Uint8Array([n, n + 1]));
    if (n === 2) c.close();
  },
}));
const [a, b] = rs.tee();
const ra = a.getReader({ mode: 'byob' });
const rb = b.getReader();
watch('a1', ra.read(new Uint8Array(4)));
watch('b1', rb.read());
(async () => {
  await delay(1);
  watch('a2', ra.read(new Uint8Array(1)));
  watch('a3', ra.read(new Uint8Array(1)));
  watch('b2', rb.read());
  watch('b3', rb.read());
  watch('a.closed', ra.closed);
})();
