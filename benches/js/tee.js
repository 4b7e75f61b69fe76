// tee() with both branches read concurrently. Floor per chunk: pull() + enqueue() and two
// awaited reads.
const N = 20000;
async function readAll(rs) {
  const reader = rs.getReader();
  let count = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return count;
    count++;
  }
}
scenario({ group: "tee", name: "tee(), both branches read", n: N,
  floor: { awaitResult: 2, call: 2 },
  run: async (n) => {
    let i = 0;
    const [a, b] = new ReadableStream({ pull(c) { if (i < n) c.enqueue(i++); else c.close(); } }).tee();
    const [x, y] = await Promise.all([readAll(a), readAll(b)]);
    return x === y ? x : -1;
  } });
