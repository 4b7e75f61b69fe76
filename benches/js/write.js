// writer.write(). Floor: the sink's write() call plus the promise write() returns (awaited,
// or created and awaited once per batch).
const N = 20000;
function counter() {
  const sink = { count: 0, write() { sink.count++; } };
  return [sink, new WritableStream(sink)];
}
scenario({ group: "write", name: "write(), awaited", n: N, floor: { awaitUndefined: 1, call: 1 },
  run: async (n) => {
    const [s, ws] = counter();
    const w = ws.getWriter();
    for (let i = 0; i < n; i++) await w.write(i);
    await w.close();
    return s.count;
  } });
for (const depth of [100, 30000]) {
  scenario({ group: "write", name: `write() queued ${depth} deep`, n: depth === 100 ? N : 30000,
    floor: { promise: 1, call: 1, awaitUndefined: 1 / depth },
    run: async (n) => {
      const [s, ws] = counter();
      const w = ws.getWriter();
      let i = 0;
      while (i < n) {
        let last;
        for (let k = 0; k < depth && i < n; k++, i++) last = w.write(i);
        await last;
      }
      await w.close();
      return s.count;
    } });
}
