// pipeTo with a queue on both sides (source hwm 3, destination hwm 4) and writes that settle a
// few microtasks later: several writes in flight, each read one step after the previous one,
// and the close waiting for the last write (currentWrite replaced while it is awaited).
const rs = new ReadableStream(source('src', {
  start(c) { for (const x of ['a', 'b', 'c', 'd', 'e']) c.enqueue(x); c.close(); },
}), { highWaterMark: 3 });
const ws = new WritableStream(source('sink', {
  async write(ch) { log('write', ch); await null; await null; log('written', ch); },
  close() { log('close'); },
}), { highWaterMark: 4 });
watch('pipe', rs.pipeTo(ws));
