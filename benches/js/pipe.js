// pipeTo throughput with both high-water marks 1, and through an identity TransformStream,
// against the read loop of the same source (same process, ratios).
const N = 20000;

function source(n) {
  let i = 0;
  return new ReadableStream(
    { pull(c) { if (i++ < n) c.enqueue(i); else c.close(); } },
    { highWaterMark: 1 }
  );
}
function sink() {
  return new WritableStream({ write() {} }, { highWaterMark: 1 });
}

async function main() {
  await bench("read loop (baseline)", N, async (n) => {
    const r = source(n).getReader();
    for (;;) { const { done } = await r.read(); if (done) break; }
  });
  await bench("pipeTo hwm 1/1", N, async (n) => { await source(n).pipeTo(sink()); });
  await bench("pipeThrough(identity TransformStream).pipeTo", N, async (n) => {
    await source(n).pipeThrough(new TransformStream()).pipeTo(sink());
  });
  report("read loop (baseline)");
}
main();
