// tee() of a tee branch: three readers receive all chunks; the source is pulled once per
// chunk.
let n = 0;
const rs = new ReadableStream(source('src', { pull(c) { n++; c.enqueue(n); if (n === 2) c.close(); } }));
const [a, b] = rs.tee();
const [b1, b2] = b.tee();
(async () => {
  const readers = [a, b1, b2].map((s) => s.getReader());
  for (let i = 0; i < 3; i++) {
    for (const [k, r] of readers.entries()) watch('r' + k + '.' + i, r.read());
    await delay(1);
  }
})();
