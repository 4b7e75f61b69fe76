// pipeTo over the high-water-mark grid. Floor: the pull(), enqueue() and write() calls per
// chunk (nothing else in a pipe is observable per chunk).
const N = 20000;
function source(n, hwm) {
  let i = 0;
  return new ReadableStream(
    { pull(c) { if (i < n) c.enqueue(i++); else c.close(); } },
    { highWaterMark: hwm }
  );
}
function counter(hwm) {
  const sink = { count: 0, write() { sink.count++; } };
  return [sink, new WritableStream(sink, { highWaterMark: hwm })];
}
for (const rh of [1, 1024]) {
  for (const wh of [1, 1024]) {
    scenario({ group: "pipeTo", name: `pipeTo, hwm ${rh} -> ${wh}`, n: N, floor: { call: 3 },
      run: async (n) => {
        const [s, ws] = counter(wh);
        await source(n, rh).pipeTo(ws);
        return s.count;
      } });
  }
}
