// tee(): both branches read in the same tick while the source's pull is async; a single pull
// serves both; chunk identity is shared between branches (default tee does not clone).
let n = 0;
const obj = { k: 1 };
const rs = new ReadableStream(source('src', {
  pull(c) { n++; return delay(1).then(() => { c.enqueue(n === 1 ? obj : n); if (n === 2) c.close(); }); },
}));
const [a, b] = rs.tee();
const ra = a.getReader();
const rb = b.getReader();
Promise.all([ra.read(), rb.read()]).then(([x, y]) => {
  log('same object', x.value === y.value && x.value === obj);
  watch('a2', ra.read());
  watch('b2', rb.read());
  watch('a3', ra.read());
});
