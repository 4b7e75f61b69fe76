// tee() of a default stream: both branches get the same chunks in order; reads from one
// branch pull the source; closing propagates to both.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    log('pull', n);
    c.enqueue(n);
    if (n === 2) c.close();
  },
}));
const [a, b] = rs.tee();
log('locked', rs.locked);
const ra = a.getReader();
const rb = b.getReader();
watch('a.closed', ra.closed);
watch('b.closed', rb.closed);
watch('a1', ra.read());
watch('a2', ra.read());
watch('a3', ra.read());
(async () => {
  await delay(1);
  watch('b1', rb.read());
  watch('b2', rb.read());
  watch('b3', rb.read());
})();
