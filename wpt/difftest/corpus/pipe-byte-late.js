// pipeTo from a byte stream with timer-driven enqueues into a sink.
let ctrl;
const rs = new ReadableStream(source('src', { type: 'bytes', start(c) { ctrl = c; } }));
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, close() {} }));
watch('pipe', rs.pipeTo(ws));
(async () => {
  for (let i = 1; i <= 2; i++) { await delay(1); ctrl.enqueue(new Uint8Array([i])); }
  await delay(1);
  ctrl.close();
})();
