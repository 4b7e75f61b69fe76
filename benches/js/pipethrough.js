// pipeThrough. Floor: pull() + enqueue() + write() calls, plus transform() + enqueue() per
// transform that has a transform().
const N = 20000;
function source(n) {
  let i = 0;
  return new ReadableStream({ pull(c) { if (i < n) c.enqueue(i++); else c.close(); } });
}
async function drain(rs) {
  const sink = { count: 0, write() { sink.count++; } };
  await rs.pipeTo(new WritableStream(sink));
  return sink.count;
}
const enqueuer = () => new TransformStream({ transform(chunk, c) { c.enqueue(chunk); } });
scenario({ group: "pipeThrough", name: "pipeThrough(identity TransformStream)", n: N,
  floor: { call: 3 }, run: (n) => drain(source(n).pipeThrough(new TransformStream())) });
scenario({ group: "pipeThrough", name: "pipeThrough(enqueue transform)", n: N,
  floor: { call: 5 }, run: (n) => drain(source(n).pipeThrough(enqueuer())) });
scenario({ group: "pipeThrough", name: "pipeThrough x3 (enqueue transforms)", n: N,
  floor: { call: 9 },
  run: (n) => drain(source(n).pipeThrough(enqueuer()).pipeThrough(enqueuer()).pipeThrough(enqueuer())) });
