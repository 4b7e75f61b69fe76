// Cost of one reader.read() on a stream whose queue is already full, against a bare
// `await Promise.resolve()` loop (the floor of any promise-based read in this engine).
const N = 20000;

async function main() {
  await bench("await Promise.resolve() (baseline)", N, async (n) => {
    for (let i = 0; i < n; i++) await Promise.resolve(i);
  });

  await bench("reader.read() buffered (hwm=n, enqueued in start)", N, async (n) => {
    const rs = new ReadableStream(
      { start(c) { for (let i = 0; i < n; i++) c.enqueue(i); c.close(); } },
      { highWaterMark: n }
    );
    const reader = rs.getReader();
    for (;;) { const { done } = await reader.read(); if (done) break; }
  });

  await bench("reader.read() sync pull (enqueue in pull)", N, async (n) => {
    let i = 0;
    const rs = new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(i); else c.close(); } });
    const reader = rs.getReader();
    for (;;) { const { done } = await reader.read(); if (done) break; }
  });

  await bench("for await (sync pull)", N, async (n) => {
    let i = 0;
    const rs = new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(i); else c.close(); } });
    for await (const _ of rs) { /* consume */ }
  });

  report("await Promise.resolve() (baseline)");
}
main();
