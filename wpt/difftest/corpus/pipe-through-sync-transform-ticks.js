// A pipe through a TransformStream whose transform() enqueues synchronously and whose readable
// side has room, into a sink that logs: the positions of pull(), transform(), the sink's
// write() and probes, then an error thrown by transform() on the fourth chunk.
let i = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { if (i < 6) c.enqueue(i++); else c.close(); },
}), { highWaterMark: 2 });
const ts = new TransformStream(source('tr', {
  transform(ch, c) { if (ch === 3) throw new Error('three'); c.enqueue(ch * 10); },
}), { highWaterMark: 2 }, { highWaterMark: 2 });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); },
}), { highWaterMark: 2 });
watch('pipe1', rs.pipeTo(ts.writable));
watch('pipe2', ts.readable.pipeTo(ws));
Promise.resolve().then(() => log('probe 1')).then(() => log('probe 2')).then(() => log('probe 3'));
