// Fast-path probe: synchronous pull with hwm 3 and a reader that reads in bursts of two with
// microtask gaps; pull timing relative to reads.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n === 8) c.close(); },
}), { highWaterMark: 3 });
const r = rs.getReader();
(async () => {
  for (let k = 0; k < 5; k++) {
    const a = r.read();
    const b = r.read();
    log('burst', k, await a, await b);
    await null;
    await null;
  }
})();
