// pipeTo: a pull source with async pulls and a slow sink (hwm 1); stops at 3 chunks.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    return delay(1).then(() => { c.enqueue(n); if (n === 3) c.close(); });
  },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', {
  write(chunk) { return delay(2); },
  close() {},
}));
watch('pipe', rs.pipeTo(ws));
