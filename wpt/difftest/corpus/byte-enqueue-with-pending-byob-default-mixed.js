// ReadableByteStream: a BYOB read with a larger buffer than the enqueued chunk: the read is
// filled with the whole chunk (bytesFilled >= min 1) and returns a view over its own buffer.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(new ArrayBuffer(10), 3, 5)));
(async () => {
  await delay(1);
  const chunk = new Uint8Array([1, 2]);
  ctrl.enqueue(chunk);
  log('chunk after', chunk);
})();
