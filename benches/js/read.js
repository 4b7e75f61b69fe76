// reader.read() and the async iterator. Floor: the awaited fresh promise with its
// { value, done } object per read, plus the pull() and enqueue() calls per chunk.
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
// pull() enqueues `batch` chunks at a time until n are out.
function pulled(n, batch, hwm) {
  let i = 0;
  return new ReadableStream(
    {
      pull(c) {
        for (let k = 0; k < batch; k++) {
          if (i >= n) {
            c.close();
            return;
          }
          c.enqueue(i++);
        }
      },
    },
    { highWaterMark: hwm }
  );
}

scenario({ group: "read", name: "read() hwm 1, sync pull", n: N,
  floor: { awaitResult: 1, call: 2 }, run: (n) => readAll(pulled(n, 1, 1)) });
for (const b of [1, 10, 100, 1000]) {
  scenario({ group: "read", name: `read() buffered ${b} per pull (hwm 0)`, n: N,
    floor: { awaitResult: 1, call: 1 + 1 / b }, run: (n) => readAll(pulled(n, b, 0)) });
}
scenario({ group: "read", name: "read() on a full queue (enqueued in start)", n: N,
  floor: { awaitResult: 1, call: 1 },
  run: (n) => readAll(new ReadableStream(
    { start(c) { for (let i = 0; i < n; i++) c.enqueue(i); c.close(); } },
    { highWaterMark: n })) });
scenario({ group: "read", name: "for await, sync pull", n: N, floor: { awaitResult: 1, call: 2 },
  run: async (n) => {
    let count = 0;
    for await (const _ of pulled(n, 1, 1)) count++;
    return count;
  } });
